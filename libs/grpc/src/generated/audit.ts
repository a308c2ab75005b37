import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { AuditActor as _platform_audit_v1_AuditActor, AuditActor__Output as _platform_audit_v1_AuditActor__Output } from './platform/audit/v1/AuditActor';
import type { AuditRecord as _platform_audit_v1_AuditRecord, AuditRecord__Output as _platform_audit_v1_AuditRecord__Output } from './platform/audit/v1/AuditRecord';
import type { AuditServiceClient as _platform_audit_v1_AuditServiceClient, AuditServiceDefinition as _platform_audit_v1_AuditServiceDefinition } from './platform/audit/v1/AuditService';
import type { EmitAuditEventRequest as _platform_audit_v1_EmitAuditEventRequest, EmitAuditEventRequest__Output as _platform_audit_v1_EmitAuditEventRequest__Output } from './platform/audit/v1/EmitAuditEventRequest';
import type { QueryAuditRequest as _platform_audit_v1_QueryAuditRequest, QueryAuditRequest__Output as _platform_audit_v1_QueryAuditRequest__Output } from './platform/audit/v1/QueryAuditRequest';
import type { QueryAuditResponse as _platform_audit_v1_QueryAuditResponse, QueryAuditResponse__Output as _platform_audit_v1_QueryAuditResponse__Output } from './platform/audit/v1/QueryAuditResponse';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  platform: {
    audit: {
      v1: {
        AuditActor: MessageTypeDefinition<_platform_audit_v1_AuditActor, _platform_audit_v1_AuditActor__Output>
        AuditRecord: MessageTypeDefinition<_platform_audit_v1_AuditRecord, _platform_audit_v1_AuditRecord__Output>
        AuditService: SubtypeConstructor<typeof grpc.Client, _platform_audit_v1_AuditServiceClient> & { service: _platform_audit_v1_AuditServiceDefinition }
        EmitAuditEventRequest: MessageTypeDefinition<_platform_audit_v1_EmitAuditEventRequest, _platform_audit_v1_EmitAuditEventRequest__Output>
        QueryAuditRequest: MessageTypeDefinition<_platform_audit_v1_QueryAuditRequest, _platform_audit_v1_QueryAuditRequest__Output>
        QueryAuditResponse: MessageTypeDefinition<_platform_audit_v1_QueryAuditResponse, _platform_audit_v1_QueryAuditResponse__Output>
      }
    }
  }
}

