// Original file: proto/platform/ratelimit/v1/ratelimit.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { CheckRateLimitRequest as _platform_ratelimit_v1_CheckRateLimitRequest, CheckRateLimitRequest__Output as _platform_ratelimit_v1_CheckRateLimitRequest__Output } from '../../../platform/ratelimit/v1/CheckRateLimitRequest';
import type { CheckRateLimitResponse as _platform_ratelimit_v1_CheckRateLimitResponse, CheckRateLimitResponse__Output as _platform_ratelimit_v1_CheckRateLimitResponse__Output } from '../../../platform/ratelimit/v1/CheckRateLimitResponse';
import type { ResetRateLimitRequest as _platform_ratelimit_v1_ResetRateLimitRequest, ResetRateLimitRequest__Output as _platform_ratelimit_v1_ResetRateLimitRequest__Output } from '../../../platform/ratelimit/v1/ResetRateLimitRequest';
import type { ResetRateLimitResponse as _platform_ratelimit_v1_ResetRateLimitResponse, ResetRateLimitResponse__Output as _platform_ratelimit_v1_ResetRateLimitResponse__Output } from '../../../platform/ratelimit/v1/ResetRateLimitResponse';

export interface RateLimitServiceClient extends grpc.Client {
  /**
   * Counts `hits_addend` (default 1) against every descriptor and answers per descriptor. Needs
   * `ratelimit.check` in the tenant. No `domain`, or a descriptor without entries:
   * INVALID_ARGUMENT. Empty token: INVALID_ARGUMENT; invalid token: UNAUTHENTICATED; without the
   * scope, or a tenant the token may not reach: PERMISSION_DENIED. A domain or descriptor without
   * a rule is OK with no limit (as Envoy's service answers).
   */
  CheckRateLimit(argument: _platform_ratelimit_v1_CheckRateLimitRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_ratelimit_v1_CheckRateLimitResponse__Output>): grpc.ClientUnaryCall;
  CheckRateLimit(argument: _platform_ratelimit_v1_CheckRateLimitRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_platform_ratelimit_v1_CheckRateLimitResponse__Output>): grpc.ClientUnaryCall;
  CheckRateLimit(argument: _platform_ratelimit_v1_CheckRateLimitRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_ratelimit_v1_CheckRateLimitResponse__Output>): grpc.ClientUnaryCall;
  CheckRateLimit(argument: _platform_ratelimit_v1_CheckRateLimitRequest, callback: grpc.requestCallback<_platform_ratelimit_v1_CheckRateLimitResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Counts `hits_addend` (default 1) against every descriptor and answers per descriptor. Needs
   * `ratelimit.check` in the tenant. No `domain`, or a descriptor without entries:
   * INVALID_ARGUMENT. Empty token: INVALID_ARGUMENT; invalid token: UNAUTHENTICATED; without the
   * scope, or a tenant the token may not reach: PERMISSION_DENIED. A domain or descriptor without
   * a rule is OK with no limit (as Envoy's service answers).
   */
  checkRateLimit(argument: _platform_ratelimit_v1_CheckRateLimitRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_ratelimit_v1_CheckRateLimitResponse__Output>): grpc.ClientUnaryCall;
  checkRateLimit(argument: _platform_ratelimit_v1_CheckRateLimitRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_platform_ratelimit_v1_CheckRateLimitResponse__Output>): grpc.ClientUnaryCall;
  checkRateLimit(argument: _platform_ratelimit_v1_CheckRateLimitRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_ratelimit_v1_CheckRateLimitResponse__Output>): grpc.ClientUnaryCall;
  checkRateLimit(argument: _platform_ratelimit_v1_CheckRateLimitRequest, callback: grpc.requestCallback<_platform_ratelimit_v1_CheckRateLimitResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Forgets the count of one descriptor (an operator unblocking a client). Needs a platform
   * administrator: the admin app or a global_admin user (PERMISSION_DENIED otherwise); audited as
   * `ratelimit.counter_reset` in the tenant's log. No rule for it: NOT_FOUND.
   */
  ResetRateLimit(argument: _platform_ratelimit_v1_ResetRateLimitRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_ratelimit_v1_ResetRateLimitResponse__Output>): grpc.ClientUnaryCall;
  ResetRateLimit(argument: _platform_ratelimit_v1_ResetRateLimitRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_platform_ratelimit_v1_ResetRateLimitResponse__Output>): grpc.ClientUnaryCall;
  ResetRateLimit(argument: _platform_ratelimit_v1_ResetRateLimitRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_ratelimit_v1_ResetRateLimitResponse__Output>): grpc.ClientUnaryCall;
  ResetRateLimit(argument: _platform_ratelimit_v1_ResetRateLimitRequest, callback: grpc.requestCallback<_platform_ratelimit_v1_ResetRateLimitResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Forgets the count of one descriptor (an operator unblocking a client). Needs a platform
   * administrator: the admin app or a global_admin user (PERMISSION_DENIED otherwise); audited as
   * `ratelimit.counter_reset` in the tenant's log. No rule for it: NOT_FOUND.
   */
  resetRateLimit(argument: _platform_ratelimit_v1_ResetRateLimitRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_ratelimit_v1_ResetRateLimitResponse__Output>): grpc.ClientUnaryCall;
  resetRateLimit(argument: _platform_ratelimit_v1_ResetRateLimitRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_platform_ratelimit_v1_ResetRateLimitResponse__Output>): grpc.ClientUnaryCall;
  resetRateLimit(argument: _platform_ratelimit_v1_ResetRateLimitRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_ratelimit_v1_ResetRateLimitResponse__Output>): grpc.ClientUnaryCall;
  resetRateLimit(argument: _platform_ratelimit_v1_ResetRateLimitRequest, callback: grpc.requestCallback<_platform_ratelimit_v1_ResetRateLimitResponse__Output>): grpc.ClientUnaryCall;
  
}

export interface RateLimitServiceHandlers extends grpc.UntypedServiceImplementation {
  /**
   * Counts `hits_addend` (default 1) against every descriptor and answers per descriptor. Needs
   * `ratelimit.check` in the tenant. No `domain`, or a descriptor without entries:
   * INVALID_ARGUMENT. Empty token: INVALID_ARGUMENT; invalid token: UNAUTHENTICATED; without the
   * scope, or a tenant the token may not reach: PERMISSION_DENIED. A domain or descriptor without
   * a rule is OK with no limit (as Envoy's service answers).
   */
  CheckRateLimit: grpc.handleUnaryCall<_platform_ratelimit_v1_CheckRateLimitRequest__Output, _platform_ratelimit_v1_CheckRateLimitResponse>;
  
  /**
   * Forgets the count of one descriptor (an operator unblocking a client). Needs a platform
   * administrator: the admin app or a global_admin user (PERMISSION_DENIED otherwise); audited as
   * `ratelimit.counter_reset` in the tenant's log. No rule for it: NOT_FOUND.
   */
  ResetRateLimit: grpc.handleUnaryCall<_platform_ratelimit_v1_ResetRateLimitRequest__Output, _platform_ratelimit_v1_ResetRateLimitResponse>;
  
}

export interface RateLimitServiceDefinition extends grpc.ServiceDefinition {
  CheckRateLimit: MethodDefinition<_platform_ratelimit_v1_CheckRateLimitRequest, _platform_ratelimit_v1_CheckRateLimitResponse, _platform_ratelimit_v1_CheckRateLimitRequest__Output, _platform_ratelimit_v1_CheckRateLimitResponse__Output>
  ResetRateLimit: MethodDefinition<_platform_ratelimit_v1_ResetRateLimitRequest, _platform_ratelimit_v1_ResetRateLimitResponse, _platform_ratelimit_v1_ResetRateLimitRequest__Output, _platform_ratelimit_v1_ResetRateLimitResponse__Output>
}
