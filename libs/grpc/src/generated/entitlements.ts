import type * as grpc from '@grpc/grpc-js';
import type { EnumTypeDefinition, MessageTypeDefinition } from '@grpc/proto-loader';

import type { ListValue as _google_protobuf_ListValue, ListValue__Output as _google_protobuf_ListValue__Output } from './google/protobuf/ListValue';
import type { Struct as _google_protobuf_Struct, Struct__Output as _google_protobuf_Struct__Output } from './google/protobuf/Struct';
import type { Value as _google_protobuf_Value, Value__Output as _google_protobuf_Value__Output } from './google/protobuf/Value';
import type { CheckEntitlementRequest as _platform_entitlements_v1_CheckEntitlementRequest, CheckEntitlementRequest__Output as _platform_entitlements_v1_CheckEntitlementRequest__Output } from './platform/entitlements/v1/CheckEntitlementRequest';
import type { CheckEntitlementResponse as _platform_entitlements_v1_CheckEntitlementResponse, CheckEntitlementResponse__Output as _platform_entitlements_v1_CheckEntitlementResponse__Output } from './platform/entitlements/v1/CheckEntitlementResponse';
import type { EntitlementServiceClient as _platform_entitlements_v1_EntitlementServiceClient, EntitlementServiceDefinition as _platform_entitlements_v1_EntitlementServiceDefinition } from './platform/entitlements/v1/EntitlementService';
import type { ListEntitlementsRequest as _platform_entitlements_v1_ListEntitlementsRequest, ListEntitlementsRequest__Output as _platform_entitlements_v1_ListEntitlementsRequest__Output } from './platform/entitlements/v1/ListEntitlementsRequest';
import type { ListEntitlementsResponse as _platform_entitlements_v1_ListEntitlementsResponse, ListEntitlementsResponse__Output as _platform_entitlements_v1_ListEntitlementsResponse__Output } from './platform/entitlements/v1/ListEntitlementsResponse';
import type { Quota as _platform_entitlements_v1_Quota, Quota__Output as _platform_entitlements_v1_Quota__Output } from './platform/entitlements/v1/Quota';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  google: {
    protobuf: {
      ListValue: MessageTypeDefinition<_google_protobuf_ListValue, _google_protobuf_ListValue__Output>
      NullValue: EnumTypeDefinition
      Struct: MessageTypeDefinition<_google_protobuf_Struct, _google_protobuf_Struct__Output>
      Value: MessageTypeDefinition<_google_protobuf_Value, _google_protobuf_Value__Output>
    }
  }
  platform: {
    entitlements: {
      v1: {
        CheckEntitlementRequest: MessageTypeDefinition<_platform_entitlements_v1_CheckEntitlementRequest, _platform_entitlements_v1_CheckEntitlementRequest__Output>
        CheckEntitlementResponse: MessageTypeDefinition<_platform_entitlements_v1_CheckEntitlementResponse, _platform_entitlements_v1_CheckEntitlementResponse__Output>
        EntitlementService: SubtypeConstructor<typeof grpc.Client, _platform_entitlements_v1_EntitlementServiceClient> & { service: _platform_entitlements_v1_EntitlementServiceDefinition }
        ListEntitlementsRequest: MessageTypeDefinition<_platform_entitlements_v1_ListEntitlementsRequest, _platform_entitlements_v1_ListEntitlementsRequest__Output>
        ListEntitlementsResponse: MessageTypeDefinition<_platform_entitlements_v1_ListEntitlementsResponse, _platform_entitlements_v1_ListEntitlementsResponse__Output>
        Quota: MessageTypeDefinition<_platform_entitlements_v1_Quota, _platform_entitlements_v1_Quota__Output>
      }
    }
  }
}

