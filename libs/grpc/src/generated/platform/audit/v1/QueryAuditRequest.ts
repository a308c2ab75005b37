// Original file: proto/platform/audit/v1/audit.proto

import type { Long } from '@grpc/proto-loader';

export interface QueryAuditRequest {
  'token'?: (string);
  /**
   * The tenant whose records to read; empty: the caller's own (an app bound to no tenant names
   * one).
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
   * The tenant whose records to read; empty: the caller's own (an app bound to no tenant names
   * one).
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
