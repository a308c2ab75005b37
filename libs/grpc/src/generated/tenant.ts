import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { ResolveTenantRequest as _platform_tenant_v1_ResolveTenantRequest, ResolveTenantRequest__Output as _platform_tenant_v1_ResolveTenantRequest__Output } from './platform/tenant/v1/ResolveTenantRequest';
import type { ResolveTenantResponse as _platform_tenant_v1_ResolveTenantResponse, ResolveTenantResponse__Output as _platform_tenant_v1_ResolveTenantResponse__Output } from './platform/tenant/v1/ResolveTenantResponse';
import type { TenantServiceClient as _platform_tenant_v1_TenantServiceClient, TenantServiceDefinition as _platform_tenant_v1_TenantServiceDefinition } from './platform/tenant/v1/TenantService';
import type { ValidateIsolationRequest as _platform_tenant_v1_ValidateIsolationRequest, ValidateIsolationRequest__Output as _platform_tenant_v1_ValidateIsolationRequest__Output } from './platform/tenant/v1/ValidateIsolationRequest';
import type { ValidateIsolationResponse as _platform_tenant_v1_ValidateIsolationResponse, ValidateIsolationResponse__Output as _platform_tenant_v1_ValidateIsolationResponse__Output } from './platform/tenant/v1/ValidateIsolationResponse';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  platform: {
    tenant: {
      v1: {
        ResolveTenantRequest: MessageTypeDefinition<_platform_tenant_v1_ResolveTenantRequest, _platform_tenant_v1_ResolveTenantRequest__Output>
        ResolveTenantResponse: MessageTypeDefinition<_platform_tenant_v1_ResolveTenantResponse, _platform_tenant_v1_ResolveTenantResponse__Output>
        TenantService: SubtypeConstructor<typeof grpc.Client, _platform_tenant_v1_TenantServiceClient> & { service: _platform_tenant_v1_TenantServiceDefinition }
        ValidateIsolationRequest: MessageTypeDefinition<_platform_tenant_v1_ValidateIsolationRequest, _platform_tenant_v1_ValidateIsolationRequest__Output>
        ValidateIsolationResponse: MessageTypeDefinition<_platform_tenant_v1_ValidateIsolationResponse, _platform_tenant_v1_ValidateIsolationResponse__Output>
      }
    }
  }
}

