// Original file: proto/platform/audit/v1/audit.proto

import type { AuditRecord as _platform_audit_v1_AuditRecord, AuditRecord__Output as _platform_audit_v1_AuditRecord__Output } from '../../../platform/audit/v1/AuditRecord';
import type { Long } from '@grpc/proto-loader';

export interface QueryAuditResponse {
  'records'?: (_platform_audit_v1_AuditRecord)[];
  'next_after'?: (number | string | Long);
}

export interface QueryAuditResponse__Output {
  'records': (_platform_audit_v1_AuditRecord__Output)[];
  'next_after': (number);
}
