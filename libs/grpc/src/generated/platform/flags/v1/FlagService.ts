// Original file: proto/platform/flags/v1/flags.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { EvaluateFlagRequest as _platform_flags_v1_EvaluateFlagRequest, EvaluateFlagRequest__Output as _platform_flags_v1_EvaluateFlagRequest__Output } from '../../../platform/flags/v1/EvaluateFlagRequest';
import type { EvaluateFlagResponse as _platform_flags_v1_EvaluateFlagResponse, EvaluateFlagResponse__Output as _platform_flags_v1_EvaluateFlagResponse__Output } from '../../../platform/flags/v1/EvaluateFlagResponse';

export interface FlagServiceClient extends grpc.Client {
  /**
   * Evaluates one flag for the caller. An unknown flag, a type other than the flag's, or a tenant
   * without flags is not an RPC error: the default value comes back with reason ERROR and the
   * OpenFeature error code (FLAG_NOT_FOUND, TYPE_MISMATCH), as a provider reports it. Bad input (no
   * flag key, an unknown type, a default of another type, context_json not a JSON object):
   * INVALID_ARGUMENT. Empty token: INVALID_ARGUMENT; invalid token: UNAUTHENTICATED; without
   * `flags.read` in the tenant, or a user or a bound app naming another tenant: PERMISSION_DENIED.
   * Flags not loaded yet: UNAVAILABLE.
   */
  EvaluateFlag(argument: _platform_flags_v1_EvaluateFlagRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_flags_v1_EvaluateFlagResponse__Output>): grpc.ClientUnaryCall;
  EvaluateFlag(argument: _platform_flags_v1_EvaluateFlagRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_platform_flags_v1_EvaluateFlagResponse__Output>): grpc.ClientUnaryCall;
  EvaluateFlag(argument: _platform_flags_v1_EvaluateFlagRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_flags_v1_EvaluateFlagResponse__Output>): grpc.ClientUnaryCall;
  EvaluateFlag(argument: _platform_flags_v1_EvaluateFlagRequest, callback: grpc.requestCallback<_platform_flags_v1_EvaluateFlagResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Evaluates one flag for the caller. An unknown flag, a type other than the flag's, or a tenant
   * without flags is not an RPC error: the default value comes back with reason ERROR and the
   * OpenFeature error code (FLAG_NOT_FOUND, TYPE_MISMATCH), as a provider reports it. Bad input (no
   * flag key, an unknown type, a default of another type, context_json not a JSON object):
   * INVALID_ARGUMENT. Empty token: INVALID_ARGUMENT; invalid token: UNAUTHENTICATED; without
   * `flags.read` in the tenant, or a user or a bound app naming another tenant: PERMISSION_DENIED.
   * Flags not loaded yet: UNAVAILABLE.
   */
  evaluateFlag(argument: _platform_flags_v1_EvaluateFlagRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_flags_v1_EvaluateFlagResponse__Output>): grpc.ClientUnaryCall;
  evaluateFlag(argument: _platform_flags_v1_EvaluateFlagRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_platform_flags_v1_EvaluateFlagResponse__Output>): grpc.ClientUnaryCall;
  evaluateFlag(argument: _platform_flags_v1_EvaluateFlagRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_flags_v1_EvaluateFlagResponse__Output>): grpc.ClientUnaryCall;
  evaluateFlag(argument: _platform_flags_v1_EvaluateFlagRequest, callback: grpc.requestCallback<_platform_flags_v1_EvaluateFlagResponse__Output>): grpc.ClientUnaryCall;
  
}

export interface FlagServiceHandlers extends grpc.UntypedServiceImplementation {
  /**
   * Evaluates one flag for the caller. An unknown flag, a type other than the flag's, or a tenant
   * without flags is not an RPC error: the default value comes back with reason ERROR and the
   * OpenFeature error code (FLAG_NOT_FOUND, TYPE_MISMATCH), as a provider reports it. Bad input (no
   * flag key, an unknown type, a default of another type, context_json not a JSON object):
   * INVALID_ARGUMENT. Empty token: INVALID_ARGUMENT; invalid token: UNAUTHENTICATED; without
   * `flags.read` in the tenant, or a user or a bound app naming another tenant: PERMISSION_DENIED.
   * Flags not loaded yet: UNAVAILABLE.
   */
  EvaluateFlag: grpc.handleUnaryCall<_platform_flags_v1_EvaluateFlagRequest__Output, _platform_flags_v1_EvaluateFlagResponse>;
  
}

export interface FlagServiceDefinition extends grpc.ServiceDefinition {
  EvaluateFlag: MethodDefinition<_platform_flags_v1_EvaluateFlagRequest, _platform_flags_v1_EvaluateFlagResponse, _platform_flags_v1_EvaluateFlagRequest__Output, _platform_flags_v1_EvaluateFlagResponse__Output>
}
