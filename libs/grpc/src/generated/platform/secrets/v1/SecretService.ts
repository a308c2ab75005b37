// Original file: proto/platform/secrets/v1/secrets.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { ResolveSecretRequest as _platform_secrets_v1_ResolveSecretRequest, ResolveSecretRequest__Output as _platform_secrets_v1_ResolveSecretRequest__Output } from '../../../platform/secrets/v1/ResolveSecretRequest';
import type { ResolveSecretResponse as _platform_secrets_v1_ResolveSecretResponse, ResolveSecretResponse__Output as _platform_secrets_v1_ResolveSecretResponse__Output } from '../../../platform/secrets/v1/ResolveSecretResponse';

export interface SecretServiceClient extends grpc.Client {
  /**
   * One version of a secret, for a caller allowed `secrets.read` on its tenant (the policy
   * service decides). Empty token or neither reference nor name, a malformed reference, both a
   * reference and a name: INVALID_ARGUMENT. Invalid token: UNAUTHENTICATED. Not allowed, or a
   * user naming another tenant: PERMISSION_DENIED. No such secret or version, or the version is
   * soft-deleted or destroyed: NOT_FOUND. The control plane unreachable, or a stored value that
   * does not verify (altered, or sealed under a key the control plane does not hold):
   * UNAVAILABLE. The value is never in an error.
   */
  ResolveSecret(argument: _platform_secrets_v1_ResolveSecretRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_secrets_v1_ResolveSecretResponse__Output>): grpc.ClientUnaryCall;
  ResolveSecret(argument: _platform_secrets_v1_ResolveSecretRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_platform_secrets_v1_ResolveSecretResponse__Output>): grpc.ClientUnaryCall;
  ResolveSecret(argument: _platform_secrets_v1_ResolveSecretRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_secrets_v1_ResolveSecretResponse__Output>): grpc.ClientUnaryCall;
  ResolveSecret(argument: _platform_secrets_v1_ResolveSecretRequest, callback: grpc.requestCallback<_platform_secrets_v1_ResolveSecretResponse__Output>): grpc.ClientUnaryCall;
  /**
   * One version of a secret, for a caller allowed `secrets.read` on its tenant (the policy
   * service decides). Empty token or neither reference nor name, a malformed reference, both a
   * reference and a name: INVALID_ARGUMENT. Invalid token: UNAUTHENTICATED. Not allowed, or a
   * user naming another tenant: PERMISSION_DENIED. No such secret or version, or the version is
   * soft-deleted or destroyed: NOT_FOUND. The control plane unreachable, or a stored value that
   * does not verify (altered, or sealed under a key the control plane does not hold):
   * UNAVAILABLE. The value is never in an error.
   */
  resolveSecret(argument: _platform_secrets_v1_ResolveSecretRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_secrets_v1_ResolveSecretResponse__Output>): grpc.ClientUnaryCall;
  resolveSecret(argument: _platform_secrets_v1_ResolveSecretRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_platform_secrets_v1_ResolveSecretResponse__Output>): grpc.ClientUnaryCall;
  resolveSecret(argument: _platform_secrets_v1_ResolveSecretRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_secrets_v1_ResolveSecretResponse__Output>): grpc.ClientUnaryCall;
  resolveSecret(argument: _platform_secrets_v1_ResolveSecretRequest, callback: grpc.requestCallback<_platform_secrets_v1_ResolveSecretResponse__Output>): grpc.ClientUnaryCall;
  
}

export interface SecretServiceHandlers extends grpc.UntypedServiceImplementation {
  /**
   * One version of a secret, for a caller allowed `secrets.read` on its tenant (the policy
   * service decides). Empty token or neither reference nor name, a malformed reference, both a
   * reference and a name: INVALID_ARGUMENT. Invalid token: UNAUTHENTICATED. Not allowed, or a
   * user naming another tenant: PERMISSION_DENIED. No such secret or version, or the version is
   * soft-deleted or destroyed: NOT_FOUND. The control plane unreachable, or a stored value that
   * does not verify (altered, or sealed under a key the control plane does not hold):
   * UNAVAILABLE. The value is never in an error.
   */
  ResolveSecret: grpc.handleUnaryCall<_platform_secrets_v1_ResolveSecretRequest__Output, _platform_secrets_v1_ResolveSecretResponse>;
  
}

export interface SecretServiceDefinition extends grpc.ServiceDefinition {
  ResolveSecret: MethodDefinition<_platform_secrets_v1_ResolveSecretRequest, _platform_secrets_v1_ResolveSecretResponse, _platform_secrets_v1_ResolveSecretRequest__Output, _platform_secrets_v1_ResolveSecretResponse__Output>
}
