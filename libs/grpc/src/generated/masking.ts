import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { CustomPattern as _platform_masking_v1_CustomPattern, CustomPattern__Output as _platform_masking_v1_CustomPattern__Output } from './platform/masking/v1/CustomPattern';
import type { MaskRequest as _platform_masking_v1_MaskRequest, MaskRequest__Output as _platform_masking_v1_MaskRequest__Output } from './platform/masking/v1/MaskRequest';
import type { MaskResponse as _platform_masking_v1_MaskResponse, MaskResponse__Output as _platform_masking_v1_MaskResponse__Output } from './platform/masking/v1/MaskResponse';
import type { MaskStringRequest as _platform_masking_v1_MaskStringRequest, MaskStringRequest__Output as _platform_masking_v1_MaskStringRequest__Output } from './platform/masking/v1/MaskStringRequest';
import type { MaskStringResponse as _platform_masking_v1_MaskStringResponse, MaskStringResponse__Output as _platform_masking_v1_MaskStringResponse__Output } from './platform/masking/v1/MaskStringResponse';
import type { MaskedItem as _platform_masking_v1_MaskedItem, MaskedItem__Output as _platform_masking_v1_MaskedItem__Output } from './platform/masking/v1/MaskedItem';
import type { MaskingOptions as _platform_masking_v1_MaskingOptions, MaskingOptions__Output as _platform_masking_v1_MaskingOptions__Output } from './platform/masking/v1/MaskingOptions';
import type { MaskingServiceClient as _platform_masking_v1_MaskingServiceClient, MaskingServiceDefinition as _platform_masking_v1_MaskingServiceDefinition } from './platform/masking/v1/MaskingService';
import type { Operator as _platform_masking_v1_Operator, Operator__Output as _platform_masking_v1_Operator__Output } from './platform/masking/v1/Operator';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  platform: {
    masking: {
      v1: {
        CustomPattern: MessageTypeDefinition<_platform_masking_v1_CustomPattern, _platform_masking_v1_CustomPattern__Output>
        MaskRequest: MessageTypeDefinition<_platform_masking_v1_MaskRequest, _platform_masking_v1_MaskRequest__Output>
        MaskResponse: MessageTypeDefinition<_platform_masking_v1_MaskResponse, _platform_masking_v1_MaskResponse__Output>
        MaskStringRequest: MessageTypeDefinition<_platform_masking_v1_MaskStringRequest, _platform_masking_v1_MaskStringRequest__Output>
        MaskStringResponse: MessageTypeDefinition<_platform_masking_v1_MaskStringResponse, _platform_masking_v1_MaskStringResponse__Output>
        MaskedItem: MessageTypeDefinition<_platform_masking_v1_MaskedItem, _platform_masking_v1_MaskedItem__Output>
        MaskingOptions: MessageTypeDefinition<_platform_masking_v1_MaskingOptions, _platform_masking_v1_MaskingOptions__Output>
        MaskingService: SubtypeConstructor<typeof grpc.Client, _platform_masking_v1_MaskingServiceClient> & { service: _platform_masking_v1_MaskingServiceDefinition }
        Operator: MessageTypeDefinition<_platform_masking_v1_Operator, _platform_masking_v1_Operator__Output>
      }
    }
  }
}

