// Original file: proto/platform/entitlements/v1/entitlements.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { CheckEntitlementRequest as _platform_entitlements_v1_CheckEntitlementRequest, CheckEntitlementRequest__Output as _platform_entitlements_v1_CheckEntitlementRequest__Output } from '../../../platform/entitlements/v1/CheckEntitlementRequest';
import type { CheckEntitlementResponse as _platform_entitlements_v1_CheckEntitlementResponse, CheckEntitlementResponse__Output as _platform_entitlements_v1_CheckEntitlementResponse__Output } from '../../../platform/entitlements/v1/CheckEntitlementResponse';
import type { ListEntitlementsRequest as _platform_entitlements_v1_ListEntitlementsRequest, ListEntitlementsRequest__Output as _platform_entitlements_v1_ListEntitlementsRequest__Output } from '../../../platform/entitlements/v1/ListEntitlementsRequest';
import type { ListEntitlementsResponse as _platform_entitlements_v1_ListEntitlementsResponse, ListEntitlementsResponse__Output as _platform_entitlements_v1_ListEntitlementsResponse__Output } from '../../../platform/entitlements/v1/ListEntitlementsResponse';

export interface EntitlementServiceClient extends grpc.Client {
  /**
   * Whether the tenant has one feature, and its value. A feature the plan does not name is not an
   * error: `entitled` false, `value` unset. A feature name that is not one (1 to 64 of a-z 0-9 _
   * . -, from a letter): INVALID_ARGUMENT.
   */
  CheckEntitlement(argument: _platform_entitlements_v1_CheckEntitlementRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_entitlements_v1_CheckEntitlementResponse__Output>): grpc.ClientUnaryCall;
  CheckEntitlement(argument: _platform_entitlements_v1_CheckEntitlementRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_platform_entitlements_v1_CheckEntitlementResponse__Output>): grpc.ClientUnaryCall;
  CheckEntitlement(argument: _platform_entitlements_v1_CheckEntitlementRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_entitlements_v1_CheckEntitlementResponse__Output>): grpc.ClientUnaryCall;
  CheckEntitlement(argument: _platform_entitlements_v1_CheckEntitlementRequest, callback: grpc.requestCallback<_platform_entitlements_v1_CheckEntitlementResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Whether the tenant has one feature, and its value. A feature the plan does not name is not an
   * error: `entitled` false, `value` unset. A feature name that is not one (1 to 64 of a-z 0-9 _
   * . -, from a letter): INVALID_ARGUMENT.
   */
  checkEntitlement(argument: _platform_entitlements_v1_CheckEntitlementRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_entitlements_v1_CheckEntitlementResponse__Output>): grpc.ClientUnaryCall;
  checkEntitlement(argument: _platform_entitlements_v1_CheckEntitlementRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_platform_entitlements_v1_CheckEntitlementResponse__Output>): grpc.ClientUnaryCall;
  checkEntitlement(argument: _platform_entitlements_v1_CheckEntitlementRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_entitlements_v1_CheckEntitlementResponse__Output>): grpc.ClientUnaryCall;
  checkEntitlement(argument: _platform_entitlements_v1_CheckEntitlementRequest, callback: grpc.requestCallback<_platform_entitlements_v1_CheckEntitlementResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Everything the tenant is entitled to: its plan in force, its features and its quotas, with
   * the overrides in force applied. A tenant without a subscription has no plan and nothing.
   */
  ListEntitlements(argument: _platform_entitlements_v1_ListEntitlementsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_entitlements_v1_ListEntitlementsResponse__Output>): grpc.ClientUnaryCall;
  ListEntitlements(argument: _platform_entitlements_v1_ListEntitlementsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_platform_entitlements_v1_ListEntitlementsResponse__Output>): grpc.ClientUnaryCall;
  ListEntitlements(argument: _platform_entitlements_v1_ListEntitlementsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_entitlements_v1_ListEntitlementsResponse__Output>): grpc.ClientUnaryCall;
  ListEntitlements(argument: _platform_entitlements_v1_ListEntitlementsRequest, callback: grpc.requestCallback<_platform_entitlements_v1_ListEntitlementsResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Everything the tenant is entitled to: its plan in force, its features and its quotas, with
   * the overrides in force applied. A tenant without a subscription has no plan and nothing.
   */
  listEntitlements(argument: _platform_entitlements_v1_ListEntitlementsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_entitlements_v1_ListEntitlementsResponse__Output>): grpc.ClientUnaryCall;
  listEntitlements(argument: _platform_entitlements_v1_ListEntitlementsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_platform_entitlements_v1_ListEntitlementsResponse__Output>): grpc.ClientUnaryCall;
  listEntitlements(argument: _platform_entitlements_v1_ListEntitlementsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_entitlements_v1_ListEntitlementsResponse__Output>): grpc.ClientUnaryCall;
  listEntitlements(argument: _platform_entitlements_v1_ListEntitlementsRequest, callback: grpc.requestCallback<_platform_entitlements_v1_ListEntitlementsResponse__Output>): grpc.ClientUnaryCall;
  
}

export interface EntitlementServiceHandlers extends grpc.UntypedServiceImplementation {
  /**
   * Whether the tenant has one feature, and its value. A feature the plan does not name is not an
   * error: `entitled` false, `value` unset. A feature name that is not one (1 to 64 of a-z 0-9 _
   * . -, from a letter): INVALID_ARGUMENT.
   */
  CheckEntitlement: grpc.handleUnaryCall<_platform_entitlements_v1_CheckEntitlementRequest__Output, _platform_entitlements_v1_CheckEntitlementResponse>;
  
  /**
   * Everything the tenant is entitled to: its plan in force, its features and its quotas, with
   * the overrides in force applied. A tenant without a subscription has no plan and nothing.
   */
  ListEntitlements: grpc.handleUnaryCall<_platform_entitlements_v1_ListEntitlementsRequest__Output, _platform_entitlements_v1_ListEntitlementsResponse>;
  
}

export interface EntitlementServiceDefinition extends grpc.ServiceDefinition {
  CheckEntitlement: MethodDefinition<_platform_entitlements_v1_CheckEntitlementRequest, _platform_entitlements_v1_CheckEntitlementResponse, _platform_entitlements_v1_CheckEntitlementRequest__Output, _platform_entitlements_v1_CheckEntitlementResponse__Output>
  ListEntitlements: MethodDefinition<_platform_entitlements_v1_ListEntitlementsRequest, _platform_entitlements_v1_ListEntitlementsResponse, _platform_entitlements_v1_ListEntitlementsRequest__Output, _platform_entitlements_v1_ListEntitlementsResponse__Output>
}
