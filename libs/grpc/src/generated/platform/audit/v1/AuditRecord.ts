// Original file: proto/platform/audit/v1/audit.proto

import type { AuditActor as _platform_audit_v1_AuditActor, AuditActor__Output as _platform_audit_v1_AuditActor__Output } from '../../../platform/audit/v1/AuditActor';
import type { Long } from '@grpc/proto-loader';

export interface AuditRecord {
  'sequence_id'?: (number | string | Long);
  'previous_hash'?: (string);
  'record_hash'?: (string);
  /**
   * Empty for a platform-wide record.
   */
  'tenant'?: (string);
  'actor'?: (_platform_audit_v1_AuditActor | null);
  'action'?: (string);
  'target'?: (string);
  'outcome'?: (string);
  /**
   * RFC 3339 UTC with milliseconds, exactly as hashed.
   */
  'occurred_at'?: (string);
  'correlation_id'?: (string);
  /**
   * The attributes as JSON, exactly as the REST API answers them.
   */
  'attributes_json'?: (string);
}

export interface AuditRecord__Output {
  'sequence_id': (number);
  'previous_hash': (string);
  'record_hash': (string);
  /**
   * Empty for a platform-wide record.
   */
  'tenant': (string);
  'actor': (_platform_audit_v1_AuditActor__Output | null);
  'action': (string);
  'target': (string);
  'outcome': (string);
  /**
   * RFC 3339 UTC with milliseconds, exactly as hashed.
   */
  'occurred_at': (string);
  'correlation_id': (string);
  /**
   * The attributes as JSON, exactly as the REST API answers them.
   */
  'attributes_json': (string);
}
