// Original file: proto/platform/policy/v1/policy.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { DryRunRequest as _platform_policy_v1_DryRunRequest, DryRunRequest__Output as _platform_policy_v1_DryRunRequest__Output } from '../../../platform/policy/v1/DryRunRequest';
import type { EvaluateRequest as _platform_policy_v1_EvaluateRequest, EvaluateRequest__Output as _platform_policy_v1_EvaluateRequest__Output } from '../../../platform/policy/v1/EvaluateRequest';
import type { EvaluateResponse as _platform_policy_v1_EvaluateResponse, EvaluateResponse__Output as _platform_policy_v1_EvaluateResponse__Output } from '../../../platform/policy/v1/EvaluateResponse';

export interface PolicyServiceClient extends grpc.Client {
  /**
   * Decides without enforcing anything, optionally with candidate policies added to the active
   * ones, to see what a new policy would change before it is rolled out. A candidate with an
   * effect other than allow/deny, tenants other than own/other/any, or no id: INVALID_ARGUMENT.
   */
  DryRun(argument: _platform_policy_v1_DryRunRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_policy_v1_EvaluateResponse__Output>): grpc.ClientUnaryCall;
  DryRun(argument: _platform_policy_v1_DryRunRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_platform_policy_v1_EvaluateResponse__Output>): grpc.ClientUnaryCall;
  DryRun(argument: _platform_policy_v1_DryRunRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_policy_v1_EvaluateResponse__Output>): grpc.ClientUnaryCall;
  DryRun(argument: _platform_policy_v1_DryRunRequest, callback: grpc.requestCallback<_platform_policy_v1_EvaluateResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Decides without enforcing anything, optionally with candidate policies added to the active
   * ones, to see what a new policy would change before it is rolled out. A candidate with an
   * effect other than allow/deny, tenants other than own/other/any, or no id: INVALID_ARGUMENT.
   */
  dryRun(argument: _platform_policy_v1_DryRunRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_policy_v1_EvaluateResponse__Output>): grpc.ClientUnaryCall;
  dryRun(argument: _platform_policy_v1_DryRunRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_platform_policy_v1_EvaluateResponse__Output>): grpc.ClientUnaryCall;
  dryRun(argument: _platform_policy_v1_DryRunRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_policy_v1_EvaluateResponse__Output>): grpc.ClientUnaryCall;
  dryRun(argument: _platform_policy_v1_DryRunRequest, callback: grpc.requestCallback<_platform_policy_v1_EvaluateResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Decides a request against the active policies. Missing action or principal, or an unknown
   * principal kind: INVALID_ARGUMENT.
   */
  Evaluate(argument: _platform_policy_v1_EvaluateRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_policy_v1_EvaluateResponse__Output>): grpc.ClientUnaryCall;
  Evaluate(argument: _platform_policy_v1_EvaluateRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_platform_policy_v1_EvaluateResponse__Output>): grpc.ClientUnaryCall;
  Evaluate(argument: _platform_policy_v1_EvaluateRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_policy_v1_EvaluateResponse__Output>): grpc.ClientUnaryCall;
  Evaluate(argument: _platform_policy_v1_EvaluateRequest, callback: grpc.requestCallback<_platform_policy_v1_EvaluateResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Decides a request against the active policies. Missing action or principal, or an unknown
   * principal kind: INVALID_ARGUMENT.
   */
  evaluate(argument: _platform_policy_v1_EvaluateRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_policy_v1_EvaluateResponse__Output>): grpc.ClientUnaryCall;
  evaluate(argument: _platform_policy_v1_EvaluateRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_platform_policy_v1_EvaluateResponse__Output>): grpc.ClientUnaryCall;
  evaluate(argument: _platform_policy_v1_EvaluateRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_policy_v1_EvaluateResponse__Output>): grpc.ClientUnaryCall;
  evaluate(argument: _platform_policy_v1_EvaluateRequest, callback: grpc.requestCallback<_platform_policy_v1_EvaluateResponse__Output>): grpc.ClientUnaryCall;
  
}

export interface PolicyServiceHandlers extends grpc.UntypedServiceImplementation {
  /**
   * Decides without enforcing anything, optionally with candidate policies added to the active
   * ones, to see what a new policy would change before it is rolled out. A candidate with an
   * effect other than allow/deny, tenants other than own/other/any, or no id: INVALID_ARGUMENT.
   */
  DryRun: grpc.handleUnaryCall<_platform_policy_v1_DryRunRequest__Output, _platform_policy_v1_EvaluateResponse>;
  
  /**
   * Decides a request against the active policies. Missing action or principal, or an unknown
   * principal kind: INVALID_ARGUMENT.
   */
  Evaluate: grpc.handleUnaryCall<_platform_policy_v1_EvaluateRequest__Output, _platform_policy_v1_EvaluateResponse>;
  
}

export interface PolicyServiceDefinition extends grpc.ServiceDefinition {
  DryRun: MethodDefinition<_platform_policy_v1_DryRunRequest, _platform_policy_v1_EvaluateResponse, _platform_policy_v1_DryRunRequest__Output, _platform_policy_v1_EvaluateResponse__Output>
  Evaluate: MethodDefinition<_platform_policy_v1_EvaluateRequest, _platform_policy_v1_EvaluateResponse, _platform_policy_v1_EvaluateRequest__Output, _platform_policy_v1_EvaluateResponse__Output>
}
