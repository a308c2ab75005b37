// Original file: proto/platform/audit/v1/audit.proto

import type { Long } from '@grpc/proto-loader';

export interface QueryAuditRequest {
  'token'?: (string);
  /**
   * Required: the tenant whose records to read.
   */
  'tenant'?: (string);
  /**
   * Cursor: next_after of the previous page (0 for the start).
   */
  'after'?: (number | string | Long);
  /**
   * 1 to 1000; 0 for the default (100).
   */
  'limit'?: (number);
  /**
   * RFC 3339 bounds; empty for none.
   */
  'since'?: (string);
  'until'?: (string);
  'actor'?: (string);
  'action'?: (string);
  'target'?: (string);
}

export interface QueryAuditRequest__Output {
  'token': (string);
  /**
   * Required: the tenant whose records to read.
   */
  'tenant': (string);
  /**
   * Cursor: next_after of the previous page (0 for the start).
   */
  'after': (number);
  /**
   * 1 to 1000; 0 for the default (100).
   */
  'limit': (number);
  /**
   * RFC 3339 bounds; empty for none.
   */
  'since': (string);
  'until': (string);
  'actor': (string);
  'action': (string);
  'target': (string);
}
