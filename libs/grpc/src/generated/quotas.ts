import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from './google/protobuf/Timestamp';
import type { ConsumeQuotaRequest as _platform_quotas_v1_ConsumeQuotaRequest, ConsumeQuotaRequest__Output as _platform_quotas_v1_ConsumeQuotaRequest__Output } from './platform/quotas/v1/ConsumeQuotaRequest';
import type { GetQuotaUsageRequest as _platform_quotas_v1_GetQuotaUsageRequest, GetQuotaUsageRequest__Output as _platform_quotas_v1_GetQuotaUsageRequest__Output } from './platform/quotas/v1/GetQuotaUsageRequest';
import type { QuotaAnswer as _platform_quotas_v1_QuotaAnswer, QuotaAnswer__Output as _platform_quotas_v1_QuotaAnswer__Output } from './platform/quotas/v1/QuotaAnswer';
import type { QuotaServiceClient as _platform_quotas_v1_QuotaServiceClient, QuotaServiceDefinition as _platform_quotas_v1_QuotaServiceDefinition } from './platform/quotas/v1/QuotaService';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  google: {
    protobuf: {
      Timestamp: MessageTypeDefinition<_google_protobuf_Timestamp, _google_protobuf_Timestamp__Output>
    }
  }
  platform: {
    quotas: {
      v1: {
        ConsumeQuotaRequest: MessageTypeDefinition<_platform_quotas_v1_ConsumeQuotaRequest, _platform_quotas_v1_ConsumeQuotaRequest__Output>
        GetQuotaUsageRequest: MessageTypeDefinition<_platform_quotas_v1_GetQuotaUsageRequest, _platform_quotas_v1_GetQuotaUsageRequest__Output>
        QuotaAnswer: MessageTypeDefinition<_platform_quotas_v1_QuotaAnswer, _platform_quotas_v1_QuotaAnswer__Output>
        QuotaService: SubtypeConstructor<typeof grpc.Client, _platform_quotas_v1_QuotaServiceClient> & { service: _platform_quotas_v1_QuotaServiceDefinition }
      }
    }
  }
}

