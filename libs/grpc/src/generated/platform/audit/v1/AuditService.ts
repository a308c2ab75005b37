// Original file: proto/platform/audit/v1/audit.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { AuditRecord as _platform_audit_v1_AuditRecord, AuditRecord__Output as _platform_audit_v1_AuditRecord__Output } from '../../../platform/audit/v1/AuditRecord';
import type { EmitAuditEventRequest as _platform_audit_v1_EmitAuditEventRequest, EmitAuditEventRequest__Output as _platform_audit_v1_EmitAuditEventRequest__Output } from '../../../platform/audit/v1/EmitAuditEventRequest';
import type { QueryAuditRequest as _platform_audit_v1_QueryAuditRequest, QueryAuditRequest__Output as _platform_audit_v1_QueryAuditRequest__Output } from '../../../platform/audit/v1/QueryAuditRequest';
import type { QueryAuditResponse as _platform_audit_v1_QueryAuditResponse, QueryAuditResponse__Output as _platform_audit_v1_QueryAuditResponse__Output } from '../../../platform/audit/v1/QueryAuditResponse';

export interface AuditServiceClient extends grpc.Client {
  /**
   * Appends one record. The actor is the token's subject: the user of a user token, else the
   * application. Invalid token: UNAUTHENTICATED; not allowed: PERMISSION_DENIED (with the
   * x-decision-id and x-decided-by trailers); a malformed record: INVALID_ARGUMENT.
   */
  EmitAuditEvent(argument: _platform_audit_v1_EmitAuditEventRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_audit_v1_AuditRecord__Output>): grpc.ClientUnaryCall;
  EmitAuditEvent(argument: _platform_audit_v1_EmitAuditEventRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_platform_audit_v1_AuditRecord__Output>): grpc.ClientUnaryCall;
  EmitAuditEvent(argument: _platform_audit_v1_EmitAuditEventRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_audit_v1_AuditRecord__Output>): grpc.ClientUnaryCall;
  EmitAuditEvent(argument: _platform_audit_v1_EmitAuditEventRequest, callback: grpc.requestCallback<_platform_audit_v1_AuditRecord__Output>): grpc.ClientUnaryCall;
  /**
   * Appends one record. The actor is the token's subject: the user of a user token, else the
   * application. Invalid token: UNAUTHENTICATED; not allowed: PERMISSION_DENIED (with the
   * x-decision-id and x-decided-by trailers); a malformed record: INVALID_ARGUMENT.
   */
  emitAuditEvent(argument: _platform_audit_v1_EmitAuditEventRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_audit_v1_AuditRecord__Output>): grpc.ClientUnaryCall;
  emitAuditEvent(argument: _platform_audit_v1_EmitAuditEventRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_platform_audit_v1_AuditRecord__Output>): grpc.ClientUnaryCall;
  emitAuditEvent(argument: _platform_audit_v1_EmitAuditEventRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_audit_v1_AuditRecord__Output>): grpc.ClientUnaryCall;
  emitAuditEvent(argument: _platform_audit_v1_EmitAuditEventRequest, callback: grpc.requestCallback<_platform_audit_v1_AuditRecord__Output>): grpc.ClientUnaryCall;
  
  /**
   * One page of a tenant's records, oldest first; filters combine with AND.
   */
  QueryAudit(argument: _platform_audit_v1_QueryAuditRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_audit_v1_QueryAuditResponse__Output>): grpc.ClientUnaryCall;
  QueryAudit(argument: _platform_audit_v1_QueryAuditRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_platform_audit_v1_QueryAuditResponse__Output>): grpc.ClientUnaryCall;
  QueryAudit(argument: _platform_audit_v1_QueryAuditRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_audit_v1_QueryAuditResponse__Output>): grpc.ClientUnaryCall;
  QueryAudit(argument: _platform_audit_v1_QueryAuditRequest, callback: grpc.requestCallback<_platform_audit_v1_QueryAuditResponse__Output>): grpc.ClientUnaryCall;
  /**
   * One page of a tenant's records, oldest first; filters combine with AND.
   */
  queryAudit(argument: _platform_audit_v1_QueryAuditRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_audit_v1_QueryAuditResponse__Output>): grpc.ClientUnaryCall;
  queryAudit(argument: _platform_audit_v1_QueryAuditRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_platform_audit_v1_QueryAuditResponse__Output>): grpc.ClientUnaryCall;
  queryAudit(argument: _platform_audit_v1_QueryAuditRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_audit_v1_QueryAuditResponse__Output>): grpc.ClientUnaryCall;
  queryAudit(argument: _platform_audit_v1_QueryAuditRequest, callback: grpc.requestCallback<_platform_audit_v1_QueryAuditResponse__Output>): grpc.ClientUnaryCall;
  
}

export interface AuditServiceHandlers extends grpc.UntypedServiceImplementation {
  /**
   * Appends one record. The actor is the token's subject: the user of a user token, else the
   * application. Invalid token: UNAUTHENTICATED; not allowed: PERMISSION_DENIED (with the
   * x-decision-id and x-decided-by trailers); a malformed record: INVALID_ARGUMENT.
   */
  EmitAuditEvent: grpc.handleUnaryCall<_platform_audit_v1_EmitAuditEventRequest__Output, _platform_audit_v1_AuditRecord>;
  
  /**
   * One page of a tenant's records, oldest first; filters combine with AND.
   */
  QueryAudit: grpc.handleUnaryCall<_platform_audit_v1_QueryAuditRequest__Output, _platform_audit_v1_QueryAuditResponse>;
  
}

export interface AuditServiceDefinition extends grpc.ServiceDefinition {
  EmitAuditEvent: MethodDefinition<_platform_audit_v1_EmitAuditEventRequest, _platform_audit_v1_AuditRecord, _platform_audit_v1_EmitAuditEventRequest__Output, _platform_audit_v1_AuditRecord__Output>
  QueryAudit: MethodDefinition<_platform_audit_v1_QueryAuditRequest, _platform_audit_v1_QueryAuditResponse, _platform_audit_v1_QueryAuditRequest__Output, _platform_audit_v1_QueryAuditResponse__Output>
}
