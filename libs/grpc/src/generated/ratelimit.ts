import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { Duration as _google_protobuf_Duration, Duration__Output as _google_protobuf_Duration__Output } from './google/protobuf/Duration';
import type { CheckRateLimitRequest as _platform_ratelimit_v1_CheckRateLimitRequest, CheckRateLimitRequest__Output as _platform_ratelimit_v1_CheckRateLimitRequest__Output } from './platform/ratelimit/v1/CheckRateLimitRequest';
import type { CheckRateLimitResponse as _platform_ratelimit_v1_CheckRateLimitResponse, CheckRateLimitResponse__Output as _platform_ratelimit_v1_CheckRateLimitResponse__Output } from './platform/ratelimit/v1/CheckRateLimitResponse';
import type { RateLimitDescriptor as _platform_ratelimit_v1_RateLimitDescriptor, RateLimitDescriptor__Output as _platform_ratelimit_v1_RateLimitDescriptor__Output } from './platform/ratelimit/v1/RateLimitDescriptor';
import type { RateLimitServiceClient as _platform_ratelimit_v1_RateLimitServiceClient, RateLimitServiceDefinition as _platform_ratelimit_v1_RateLimitServiceDefinition } from './platform/ratelimit/v1/RateLimitService';
import type { ResetRateLimitRequest as _platform_ratelimit_v1_ResetRateLimitRequest, ResetRateLimitRequest__Output as _platform_ratelimit_v1_ResetRateLimitRequest__Output } from './platform/ratelimit/v1/ResetRateLimitRequest';
import type { ResetRateLimitResponse as _platform_ratelimit_v1_ResetRateLimitResponse, ResetRateLimitResponse__Output as _platform_ratelimit_v1_ResetRateLimitResponse__Output } from './platform/ratelimit/v1/ResetRateLimitResponse';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  google: {
    protobuf: {
      Duration: MessageTypeDefinition<_google_protobuf_Duration, _google_protobuf_Duration__Output>
    }
  }
  platform: {
    ratelimit: {
      v1: {
        CheckRateLimitRequest: MessageTypeDefinition<_platform_ratelimit_v1_CheckRateLimitRequest, _platform_ratelimit_v1_CheckRateLimitRequest__Output>
        CheckRateLimitResponse: MessageTypeDefinition<_platform_ratelimit_v1_CheckRateLimitResponse, _platform_ratelimit_v1_CheckRateLimitResponse__Output>
        RateLimitDescriptor: MessageTypeDefinition<_platform_ratelimit_v1_RateLimitDescriptor, _platform_ratelimit_v1_RateLimitDescriptor__Output>
        RateLimitService: SubtypeConstructor<typeof grpc.Client, _platform_ratelimit_v1_RateLimitServiceClient> & { service: _platform_ratelimit_v1_RateLimitServiceDefinition }
        ResetRateLimitRequest: MessageTypeDefinition<_platform_ratelimit_v1_ResetRateLimitRequest, _platform_ratelimit_v1_ResetRateLimitRequest__Output>
        ResetRateLimitResponse: MessageTypeDefinition<_platform_ratelimit_v1_ResetRateLimitResponse, _platform_ratelimit_v1_ResetRateLimitResponse__Output>
      }
    }
  }
}

