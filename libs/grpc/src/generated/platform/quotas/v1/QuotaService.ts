// Original file: proto/platform/quotas/v1/quotas.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { ConsumeQuotaRequest as _platform_quotas_v1_ConsumeQuotaRequest, ConsumeQuotaRequest__Output as _platform_quotas_v1_ConsumeQuotaRequest__Output } from '../../../platform/quotas/v1/ConsumeQuotaRequest';
import type { GetQuotaUsageRequest as _platform_quotas_v1_GetQuotaUsageRequest, GetQuotaUsageRequest__Output as _platform_quotas_v1_GetQuotaUsageRequest__Output } from '../../../platform/quotas/v1/GetQuotaUsageRequest';
import type { QuotaAnswer as _platform_quotas_v1_QuotaAnswer, QuotaAnswer__Output as _platform_quotas_v1_QuotaAnswer__Output } from '../../../platform/quotas/v1/QuotaAnswer';

export interface QuotaServiceClient extends grpc.Client {
  /**
   * Checks and consumes `units` of the tenant's meter in one step. Needs `quotas.consume` in the
   * tenant. A meter no quota of the tenant's plan limits is not an error: `limited` false, nothing
   * counted. Past a hard limit: RESOURCE_EXHAUSTED with a google.rpc.RetryInfo (in
   * `grpc-status-details-bin`) until the window ends, nothing counted; past a soft limit: granted
   * and counted. With an `idempotency_key` the tenant already used for this meter in this
   * window, answers the first consumption again (`replayed` true) and counts nothing.
   */
  ConsumeQuota(argument: _platform_quotas_v1_ConsumeQuotaRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_quotas_v1_QuotaAnswer__Output>): grpc.ClientUnaryCall;
  ConsumeQuota(argument: _platform_quotas_v1_ConsumeQuotaRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_platform_quotas_v1_QuotaAnswer__Output>): grpc.ClientUnaryCall;
  ConsumeQuota(argument: _platform_quotas_v1_ConsumeQuotaRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_quotas_v1_QuotaAnswer__Output>): grpc.ClientUnaryCall;
  ConsumeQuota(argument: _platform_quotas_v1_ConsumeQuotaRequest, callback: grpc.requestCallback<_platform_quotas_v1_QuotaAnswer__Output>): grpc.ClientUnaryCall;
  /**
   * Checks and consumes `units` of the tenant's meter in one step. Needs `quotas.consume` in the
   * tenant. A meter no quota of the tenant's plan limits is not an error: `limited` false, nothing
   * counted. Past a hard limit: RESOURCE_EXHAUSTED with a google.rpc.RetryInfo (in
   * `grpc-status-details-bin`) until the window ends, nothing counted; past a soft limit: granted
   * and counted. With an `idempotency_key` the tenant already used for this meter in this
   * window, answers the first consumption again (`replayed` true) and counts nothing.
   */
  consumeQuota(argument: _platform_quotas_v1_ConsumeQuotaRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_quotas_v1_QuotaAnswer__Output>): grpc.ClientUnaryCall;
  consumeQuota(argument: _platform_quotas_v1_ConsumeQuotaRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_platform_quotas_v1_QuotaAnswer__Output>): grpc.ClientUnaryCall;
  consumeQuota(argument: _platform_quotas_v1_ConsumeQuotaRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_quotas_v1_QuotaAnswer__Output>): grpc.ClientUnaryCall;
  consumeQuota(argument: _platform_quotas_v1_ConsumeQuotaRequest, callback: grpc.requestCallback<_platform_quotas_v1_QuotaAnswer__Output>): grpc.ClientUnaryCall;
  
  /**
   * The meter's limit and count in the window in progress; counts nothing. Needs `quotas.read` in
   * the tenant.
   */
  GetQuotaUsage(argument: _platform_quotas_v1_GetQuotaUsageRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_quotas_v1_QuotaAnswer__Output>): grpc.ClientUnaryCall;
  GetQuotaUsage(argument: _platform_quotas_v1_GetQuotaUsageRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_platform_quotas_v1_QuotaAnswer__Output>): grpc.ClientUnaryCall;
  GetQuotaUsage(argument: _platform_quotas_v1_GetQuotaUsageRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_quotas_v1_QuotaAnswer__Output>): grpc.ClientUnaryCall;
  GetQuotaUsage(argument: _platform_quotas_v1_GetQuotaUsageRequest, callback: grpc.requestCallback<_platform_quotas_v1_QuotaAnswer__Output>): grpc.ClientUnaryCall;
  /**
   * The meter's limit and count in the window in progress; counts nothing. Needs `quotas.read` in
   * the tenant.
   */
  getQuotaUsage(argument: _platform_quotas_v1_GetQuotaUsageRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_quotas_v1_QuotaAnswer__Output>): grpc.ClientUnaryCall;
  getQuotaUsage(argument: _platform_quotas_v1_GetQuotaUsageRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_platform_quotas_v1_QuotaAnswer__Output>): grpc.ClientUnaryCall;
  getQuotaUsage(argument: _platform_quotas_v1_GetQuotaUsageRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_quotas_v1_QuotaAnswer__Output>): grpc.ClientUnaryCall;
  getQuotaUsage(argument: _platform_quotas_v1_GetQuotaUsageRequest, callback: grpc.requestCallback<_platform_quotas_v1_QuotaAnswer__Output>): grpc.ClientUnaryCall;
  
}

export interface QuotaServiceHandlers extends grpc.UntypedServiceImplementation {
  /**
   * Checks and consumes `units` of the tenant's meter in one step. Needs `quotas.consume` in the
   * tenant. A meter no quota of the tenant's plan limits is not an error: `limited` false, nothing
   * counted. Past a hard limit: RESOURCE_EXHAUSTED with a google.rpc.RetryInfo (in
   * `grpc-status-details-bin`) until the window ends, nothing counted; past a soft limit: granted
   * and counted. With an `idempotency_key` the tenant already used for this meter in this
   * window, answers the first consumption again (`replayed` true) and counts nothing.
   */
  ConsumeQuota: grpc.handleUnaryCall<_platform_quotas_v1_ConsumeQuotaRequest__Output, _platform_quotas_v1_QuotaAnswer>;
  
  /**
   * The meter's limit and count in the window in progress; counts nothing. Needs `quotas.read` in
   * the tenant.
   */
  GetQuotaUsage: grpc.handleUnaryCall<_platform_quotas_v1_GetQuotaUsageRequest__Output, _platform_quotas_v1_QuotaAnswer>;
  
}

export interface QuotaServiceDefinition extends grpc.ServiceDefinition {
  ConsumeQuota: MethodDefinition<_platform_quotas_v1_ConsumeQuotaRequest, _platform_quotas_v1_QuotaAnswer, _platform_quotas_v1_ConsumeQuotaRequest__Output, _platform_quotas_v1_QuotaAnswer__Output>
  GetQuotaUsage: MethodDefinition<_platform_quotas_v1_GetQuotaUsageRequest, _platform_quotas_v1_QuotaAnswer, _platform_quotas_v1_GetQuotaUsageRequest__Output, _platform_quotas_v1_QuotaAnswer__Output>
}
