import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { ResolveSecretRequest as _platform_secrets_v1_ResolveSecretRequest, ResolveSecretRequest__Output as _platform_secrets_v1_ResolveSecretRequest__Output } from './platform/secrets/v1/ResolveSecretRequest';
import type { ResolveSecretResponse as _platform_secrets_v1_ResolveSecretResponse, ResolveSecretResponse__Output as _platform_secrets_v1_ResolveSecretResponse__Output } from './platform/secrets/v1/ResolveSecretResponse';
import type { SecretServiceClient as _platform_secrets_v1_SecretServiceClient, SecretServiceDefinition as _platform_secrets_v1_SecretServiceDefinition } from './platform/secrets/v1/SecretService';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  platform: {
    secrets: {
      v1: {
        ResolveSecretRequest: MessageTypeDefinition<_platform_secrets_v1_ResolveSecretRequest, _platform_secrets_v1_ResolveSecretRequest__Output>
        ResolveSecretResponse: MessageTypeDefinition<_platform_secrets_v1_ResolveSecretResponse, _platform_secrets_v1_ResolveSecretResponse__Output>
        SecretService: SubtypeConstructor<typeof grpc.Client, _platform_secrets_v1_SecretServiceClient> & { service: _platform_secrets_v1_SecretServiceDefinition }
      }
    }
  }
}

