// Original file: proto/platform/tenant/v1/tenant.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { ResolveTenantRequest as _platform_tenant_v1_ResolveTenantRequest, ResolveTenantRequest__Output as _platform_tenant_v1_ResolveTenantRequest__Output } from '../../../platform/tenant/v1/ResolveTenantRequest';
import type { ResolveTenantResponse as _platform_tenant_v1_ResolveTenantResponse, ResolveTenantResponse__Output as _platform_tenant_v1_ResolveTenantResponse__Output } from '../../../platform/tenant/v1/ResolveTenantResponse';
import type { ValidateIsolationRequest as _platform_tenant_v1_ValidateIsolationRequest, ValidateIsolationRequest__Output as _platform_tenant_v1_ValidateIsolationRequest__Output } from '../../../platform/tenant/v1/ValidateIsolationRequest';
import type { ValidateIsolationResponse as _platform_tenant_v1_ValidateIsolationResponse, ValidateIsolationResponse__Output as _platform_tenant_v1_ValidateIsolationResponse__Output } from '../../../platform/tenant/v1/ValidateIsolationResponse';

export interface TenantServiceClient extends grpc.Client {
  /**
   * The tenant a valid access token acts in. Invalid token: UNAUTHENTICATED. Service tokens
   * act as their app: in the tenant it is bound to, else in none (tenant empty, platform_wide
   * true).
   */
  ResolveTenant(argument: _platform_tenant_v1_ResolveTenantRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_tenant_v1_ResolveTenantResponse__Output>): grpc.ClientUnaryCall;
  ResolveTenant(argument: _platform_tenant_v1_ResolveTenantRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_platform_tenant_v1_ResolveTenantResponse__Output>): grpc.ClientUnaryCall;
  ResolveTenant(argument: _platform_tenant_v1_ResolveTenantRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_tenant_v1_ResolveTenantResponse__Output>): grpc.ClientUnaryCall;
  ResolveTenant(argument: _platform_tenant_v1_ResolveTenantRequest, callback: grpc.requestCallback<_platform_tenant_v1_ResolveTenantResponse__Output>): grpc.ClientUnaryCall;
  /**
   * The tenant a valid access token acts in. Invalid token: UNAUTHENTICATED. Service tokens
   * act as their app: in the tenant it is bound to, else in none (tenant empty, platform_wide
   * true).
   */
  resolveTenant(argument: _platform_tenant_v1_ResolveTenantRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_tenant_v1_ResolveTenantResponse__Output>): grpc.ClientUnaryCall;
  resolveTenant(argument: _platform_tenant_v1_ResolveTenantRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_platform_tenant_v1_ResolveTenantResponse__Output>): grpc.ClientUnaryCall;
  resolveTenant(argument: _platform_tenant_v1_ResolveTenantRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_tenant_v1_ResolveTenantResponse__Output>): grpc.ClientUnaryCall;
  resolveTenant(argument: _platform_tenant_v1_ResolveTenantRequest, callback: grpc.requestCallback<_platform_tenant_v1_ResolveTenantResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Whether the token may touch resources of `resource_tenant`. Only global_admin crosses
   * tenants, and an app bound to no tenant acts in all; a refusal is PERMISSION_DENIED.
   */
  ValidateIsolation(argument: _platform_tenant_v1_ValidateIsolationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_tenant_v1_ValidateIsolationResponse__Output>): grpc.ClientUnaryCall;
  ValidateIsolation(argument: _platform_tenant_v1_ValidateIsolationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_platform_tenant_v1_ValidateIsolationResponse__Output>): grpc.ClientUnaryCall;
  ValidateIsolation(argument: _platform_tenant_v1_ValidateIsolationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_tenant_v1_ValidateIsolationResponse__Output>): grpc.ClientUnaryCall;
  ValidateIsolation(argument: _platform_tenant_v1_ValidateIsolationRequest, callback: grpc.requestCallback<_platform_tenant_v1_ValidateIsolationResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Whether the token may touch resources of `resource_tenant`. Only global_admin crosses
   * tenants, and an app bound to no tenant acts in all; a refusal is PERMISSION_DENIED.
   */
  validateIsolation(argument: _platform_tenant_v1_ValidateIsolationRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_tenant_v1_ValidateIsolationResponse__Output>): grpc.ClientUnaryCall;
  validateIsolation(argument: _platform_tenant_v1_ValidateIsolationRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_platform_tenant_v1_ValidateIsolationResponse__Output>): grpc.ClientUnaryCall;
  validateIsolation(argument: _platform_tenant_v1_ValidateIsolationRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_tenant_v1_ValidateIsolationResponse__Output>): grpc.ClientUnaryCall;
  validateIsolation(argument: _platform_tenant_v1_ValidateIsolationRequest, callback: grpc.requestCallback<_platform_tenant_v1_ValidateIsolationResponse__Output>): grpc.ClientUnaryCall;
  
}

export interface TenantServiceHandlers extends grpc.UntypedServiceImplementation {
  /**
   * The tenant a valid access token acts in. Invalid token: UNAUTHENTICATED. Service tokens
   * act as their app: in the tenant it is bound to, else in none (tenant empty, platform_wide
   * true).
   */
  ResolveTenant: grpc.handleUnaryCall<_platform_tenant_v1_ResolveTenantRequest__Output, _platform_tenant_v1_ResolveTenantResponse>;
  
  /**
   * Whether the token may touch resources of `resource_tenant`. Only global_admin crosses
   * tenants, and an app bound to no tenant acts in all; a refusal is PERMISSION_DENIED.
   */
  ValidateIsolation: grpc.handleUnaryCall<_platform_tenant_v1_ValidateIsolationRequest__Output, _platform_tenant_v1_ValidateIsolationResponse>;
  
}

export interface TenantServiceDefinition extends grpc.ServiceDefinition {
  ResolveTenant: MethodDefinition<_platform_tenant_v1_ResolveTenantRequest, _platform_tenant_v1_ResolveTenantResponse, _platform_tenant_v1_ResolveTenantRequest__Output, _platform_tenant_v1_ResolveTenantResponse__Output>
  ValidateIsolation: MethodDefinition<_platform_tenant_v1_ValidateIsolationRequest, _platform_tenant_v1_ValidateIsolationResponse, _platform_tenant_v1_ValidateIsolationRequest__Output, _platform_tenant_v1_ValidateIsolationResponse__Output>
}
