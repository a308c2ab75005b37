import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { EvaluateFlagRequest as _platform_flags_v1_EvaluateFlagRequest, EvaluateFlagRequest__Output as _platform_flags_v1_EvaluateFlagRequest__Output } from './platform/flags/v1/EvaluateFlagRequest';
import type { EvaluateFlagResponse as _platform_flags_v1_EvaluateFlagResponse, EvaluateFlagResponse__Output as _platform_flags_v1_EvaluateFlagResponse__Output } from './platform/flags/v1/EvaluateFlagResponse';
import type { FlagServiceClient as _platform_flags_v1_FlagServiceClient, FlagServiceDefinition as _platform_flags_v1_FlagServiceDefinition } from './platform/flags/v1/FlagService';
import type { FlagValue as _platform_flags_v1_FlagValue, FlagValue__Output as _platform_flags_v1_FlagValue__Output } from './platform/flags/v1/FlagValue';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  platform: {
    flags: {
      v1: {
        EvaluateFlagRequest: MessageTypeDefinition<_platform_flags_v1_EvaluateFlagRequest, _platform_flags_v1_EvaluateFlagRequest__Output>
        EvaluateFlagResponse: MessageTypeDefinition<_platform_flags_v1_EvaluateFlagResponse, _platform_flags_v1_EvaluateFlagResponse__Output>
        FlagService: SubtypeConstructor<typeof grpc.Client, _platform_flags_v1_FlagServiceClient> & { service: _platform_flags_v1_FlagServiceDefinition }
        FlagValue: MessageTypeDefinition<_platform_flags_v1_FlagValue, _platform_flags_v1_FlagValue__Output>
      }
    }
  }
}

