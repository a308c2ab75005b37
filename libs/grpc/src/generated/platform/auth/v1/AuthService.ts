// Original file: proto/platform/auth/v1/auth.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { AuthorizeRequest as _platform_auth_v1_AuthorizeRequest, AuthorizeRequest__Output as _platform_auth_v1_AuthorizeRequest__Output } from '../../../platform/auth/v1/AuthorizeRequest';
import type { AuthorizeResponse as _platform_auth_v1_AuthorizeResponse, AuthorizeResponse__Output as _platform_auth_v1_AuthorizeResponse__Output } from '../../../platform/auth/v1/AuthorizeResponse';
import type { GetJwksRequest as _platform_auth_v1_GetJwksRequest, GetJwksRequest__Output as _platform_auth_v1_GetJwksRequest__Output } from '../../../platform/auth/v1/GetJwksRequest';
import type { GetJwksResponse as _platform_auth_v1_GetJwksResponse, GetJwksResponse__Output as _platform_auth_v1_GetJwksResponse__Output } from '../../../platform/auth/v1/GetJwksResponse';
import type { Invalidation as _platform_auth_v1_Invalidation, Invalidation__Output as _platform_auth_v1_Invalidation__Output } from '../../../platform/auth/v1/Invalidation';
import type { RevokeTokenRequest as _platform_auth_v1_RevokeTokenRequest, RevokeTokenRequest__Output as _platform_auth_v1_RevokeTokenRequest__Output } from '../../../platform/auth/v1/RevokeTokenRequest';
import type { RevokeTokenResponse as _platform_auth_v1_RevokeTokenResponse, RevokeTokenResponse__Output as _platform_auth_v1_RevokeTokenResponse__Output } from '../../../platform/auth/v1/RevokeTokenResponse';
import type { SyncRevocationsRequest as _platform_auth_v1_SyncRevocationsRequest, SyncRevocationsRequest__Output as _platform_auth_v1_SyncRevocationsRequest__Output } from '../../../platform/auth/v1/SyncRevocationsRequest';
import type { SyncRevocationsResponse as _platform_auth_v1_SyncRevocationsResponse, SyncRevocationsResponse__Output as _platform_auth_v1_SyncRevocationsResponse__Output } from '../../../platform/auth/v1/SyncRevocationsResponse';
import type { ValidateTokenRequest as _platform_auth_v1_ValidateTokenRequest, ValidateTokenRequest__Output as _platform_auth_v1_ValidateTokenRequest__Output } from '../../../platform/auth/v1/ValidateTokenRequest';
import type { ValidateTokenResponse as _platform_auth_v1_ValidateTokenResponse, ValidateTokenResponse__Output as _platform_auth_v1_ValidateTokenResponse__Output } from '../../../platform/auth/v1/ValidateTokenResponse';
import type { WatchInvalidationsRequest as _platform_auth_v1_WatchInvalidationsRequest, WatchInvalidationsRequest__Output as _platform_auth_v1_WatchInvalidationsRequest__Output } from '../../../platform/auth/v1/WatchInvalidationsRequest';

export interface AuthServiceClient extends grpc.Client {
  /**
   * Validates the token, then decides `action` on a resource of `resource_tenant` with the
   * policy service, in one call. Invalid token: UNAUTHENTICATED; missing action:
   * INVALID_ARGUMENT; refused: PERMISSION_DENIED (the status message names the deciding policies
   * and the decision id; the trailing metadata carries them as `x-decision-id` and
   * `x-decided-by`, comma-separated).
   */
  Authorize(argument: _platform_auth_v1_AuthorizeRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_auth_v1_AuthorizeResponse__Output>): grpc.ClientUnaryCall;
  Authorize(argument: _platform_auth_v1_AuthorizeRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_platform_auth_v1_AuthorizeResponse__Output>): grpc.ClientUnaryCall;
  Authorize(argument: _platform_auth_v1_AuthorizeRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_auth_v1_AuthorizeResponse__Output>): grpc.ClientUnaryCall;
  Authorize(argument: _platform_auth_v1_AuthorizeRequest, callback: grpc.requestCallback<_platform_auth_v1_AuthorizeResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Validates the token, then decides `action` on a resource of `resource_tenant` with the
   * policy service, in one call. Invalid token: UNAUTHENTICATED; missing action:
   * INVALID_ARGUMENT; refused: PERMISSION_DENIED (the status message names the deciding policies
   * and the decision id; the trailing metadata carries them as `x-decision-id` and
   * `x-decided-by`, comma-separated).
   */
  authorize(argument: _platform_auth_v1_AuthorizeRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_auth_v1_AuthorizeResponse__Output>): grpc.ClientUnaryCall;
  authorize(argument: _platform_auth_v1_AuthorizeRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_platform_auth_v1_AuthorizeResponse__Output>): grpc.ClientUnaryCall;
  authorize(argument: _platform_auth_v1_AuthorizeRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_auth_v1_AuthorizeResponse__Output>): grpc.ClientUnaryCall;
  authorize(argument: _platform_auth_v1_AuthorizeRequest, callback: grpc.requestCallback<_platform_auth_v1_AuthorizeResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * The public keys the sidecar currently trusts.
   */
  GetJwks(argument: _platform_auth_v1_GetJwksRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_auth_v1_GetJwksResponse__Output>): grpc.ClientUnaryCall;
  GetJwks(argument: _platform_auth_v1_GetJwksRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_platform_auth_v1_GetJwksResponse__Output>): grpc.ClientUnaryCall;
  GetJwks(argument: _platform_auth_v1_GetJwksRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_auth_v1_GetJwksResponse__Output>): grpc.ClientUnaryCall;
  GetJwks(argument: _platform_auth_v1_GetJwksRequest, callback: grpc.requestCallback<_platform_auth_v1_GetJwksResponse__Output>): grpc.ClientUnaryCall;
  /**
   * The public keys the sidecar currently trusts.
   */
  getJwks(argument: _platform_auth_v1_GetJwksRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_auth_v1_GetJwksResponse__Output>): grpc.ClientUnaryCall;
  getJwks(argument: _platform_auth_v1_GetJwksRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_platform_auth_v1_GetJwksResponse__Output>): grpc.ClientUnaryCall;
  getJwks(argument: _platform_auth_v1_GetJwksRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_auth_v1_GetJwksResponse__Output>): grpc.ClientUnaryCall;
  getJwks(argument: _platform_auth_v1_GetJwksRequest, callback: grpc.requestCallback<_platform_auth_v1_GetJwksResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Revokes an access token through the control plane and applies it locally at once.
   * Needs the internal token in metadata `x-internal-token`.
   */
  RevokeToken(argument: _platform_auth_v1_RevokeTokenRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_auth_v1_RevokeTokenResponse__Output>): grpc.ClientUnaryCall;
  RevokeToken(argument: _platform_auth_v1_RevokeTokenRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_platform_auth_v1_RevokeTokenResponse__Output>): grpc.ClientUnaryCall;
  RevokeToken(argument: _platform_auth_v1_RevokeTokenRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_auth_v1_RevokeTokenResponse__Output>): grpc.ClientUnaryCall;
  RevokeToken(argument: _platform_auth_v1_RevokeTokenRequest, callback: grpc.requestCallback<_platform_auth_v1_RevokeTokenResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Revokes an access token through the control plane and applies it locally at once.
   * Needs the internal token in metadata `x-internal-token`.
   */
  revokeToken(argument: _platform_auth_v1_RevokeTokenRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_auth_v1_RevokeTokenResponse__Output>): grpc.ClientUnaryCall;
  revokeToken(argument: _platform_auth_v1_RevokeTokenRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_platform_auth_v1_RevokeTokenResponse__Output>): grpc.ClientUnaryCall;
  revokeToken(argument: _platform_auth_v1_RevokeTokenRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_auth_v1_RevokeTokenResponse__Output>): grpc.ClientUnaryCall;
  revokeToken(argument: _platform_auth_v1_RevokeTokenRequest, callback: grpc.requestCallback<_platform_auth_v1_RevokeTokenResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Pulls the control plane's revocation feed now; returns once it is applied. Called by
   * the backend right after a revocation or app deletion so its own sidecar knows at once.
   * Needs the internal token in metadata `x-internal-token`.
   */
  SyncRevocations(argument: _platform_auth_v1_SyncRevocationsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_auth_v1_SyncRevocationsResponse__Output>): grpc.ClientUnaryCall;
  SyncRevocations(argument: _platform_auth_v1_SyncRevocationsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_platform_auth_v1_SyncRevocationsResponse__Output>): grpc.ClientUnaryCall;
  SyncRevocations(argument: _platform_auth_v1_SyncRevocationsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_auth_v1_SyncRevocationsResponse__Output>): grpc.ClientUnaryCall;
  SyncRevocations(argument: _platform_auth_v1_SyncRevocationsRequest, callback: grpc.requestCallback<_platform_auth_v1_SyncRevocationsResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Pulls the control plane's revocation feed now; returns once it is applied. Called by
   * the backend right after a revocation or app deletion so its own sidecar knows at once.
   * Needs the internal token in metadata `x-internal-token`.
   */
  syncRevocations(argument: _platform_auth_v1_SyncRevocationsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_auth_v1_SyncRevocationsResponse__Output>): grpc.ClientUnaryCall;
  syncRevocations(argument: _platform_auth_v1_SyncRevocationsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_platform_auth_v1_SyncRevocationsResponse__Output>): grpc.ClientUnaryCall;
  syncRevocations(argument: _platform_auth_v1_SyncRevocationsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_auth_v1_SyncRevocationsResponse__Output>): grpc.ClientUnaryCall;
  syncRevocations(argument: _platform_auth_v1_SyncRevocationsRequest, callback: grpc.requestCallback<_platform_auth_v1_SyncRevocationsResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Verifies signature (RS256, ES256, PS256; never "none"), typ at+jwt, exp, issuer, audience
   * (the request's `audience`, else the issuer), the deny-list (the token's subject, client,
   * grant, and every actor of its `act` chain) and whether the app still exists. Invalid token:
   * UNAUTHENTICATED.
   */
  ValidateToken(argument: _platform_auth_v1_ValidateTokenRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_auth_v1_ValidateTokenResponse__Output>): grpc.ClientUnaryCall;
  ValidateToken(argument: _platform_auth_v1_ValidateTokenRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_platform_auth_v1_ValidateTokenResponse__Output>): grpc.ClientUnaryCall;
  ValidateToken(argument: _platform_auth_v1_ValidateTokenRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_auth_v1_ValidateTokenResponse__Output>): grpc.ClientUnaryCall;
  ValidateToken(argument: _platform_auth_v1_ValidateTokenRequest, callback: grpc.requestCallback<_platform_auth_v1_ValidateTokenResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Verifies signature (RS256, ES256, PS256; never "none"), typ at+jwt, exp, issuer, audience
   * (the request's `audience`, else the issuer), the deny-list (the token's subject, client,
   * grant, and every actor of its `act` chain) and whether the app still exists. Invalid token:
   * UNAUTHENTICATED.
   */
  validateToken(argument: _platform_auth_v1_ValidateTokenRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_auth_v1_ValidateTokenResponse__Output>): grpc.ClientUnaryCall;
  validateToken(argument: _platform_auth_v1_ValidateTokenRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_platform_auth_v1_ValidateTokenResponse__Output>): grpc.ClientUnaryCall;
  validateToken(argument: _platform_auth_v1_ValidateTokenRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_auth_v1_ValidateTokenResponse__Output>): grpc.ClientUnaryCall;
  validateToken(argument: _platform_auth_v1_ValidateTokenRequest, callback: grpc.requestCallback<_platform_auth_v1_ValidateTokenResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Everything that can turn an earlier positive ValidateToken answer into a refusal, as it
   * happens, so the backend can cache those answers exactly. The first message is `ready`;
   * then one message per deny-list entry that changes the deny-list (from the control plane's
   * stream, the periodic full re-read and SyncRevocations alike), one `seq_advanced` whenever
   * the applied revocation seq moves without such an entry, and one `keys_removed` when a
   * key-set refresh drops or replaces a trusted key. Every message carries the sidecar's applied
   * seq at that moment: once a watcher has seen `seq >= n`, it has seen every change that
   * SyncRevocations answering `last_seq = n` applied. The stream never ends on its own; when it
   * does (sidecar shutdown or restart), the watcher must forget what it cached.
   * Needs the internal token in metadata `x-internal-token`.
   */
  WatchInvalidations(argument: _platform_auth_v1_WatchInvalidationsRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_platform_auth_v1_Invalidation__Output>;
  WatchInvalidations(argument: _platform_auth_v1_WatchInvalidationsRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_platform_auth_v1_Invalidation__Output>;
  /**
   * Everything that can turn an earlier positive ValidateToken answer into a refusal, as it
   * happens, so the backend can cache those answers exactly. The first message is `ready`;
   * then one message per deny-list entry that changes the deny-list (from the control plane's
   * stream, the periodic full re-read and SyncRevocations alike), one `seq_advanced` whenever
   * the applied revocation seq moves without such an entry, and one `keys_removed` when a
   * key-set refresh drops or replaces a trusted key. Every message carries the sidecar's applied
   * seq at that moment: once a watcher has seen `seq >= n`, it has seen every change that
   * SyncRevocations answering `last_seq = n` applied. The stream never ends on its own; when it
   * does (sidecar shutdown or restart), the watcher must forget what it cached.
   * Needs the internal token in metadata `x-internal-token`.
   */
  watchInvalidations(argument: _platform_auth_v1_WatchInvalidationsRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_platform_auth_v1_Invalidation__Output>;
  watchInvalidations(argument: _platform_auth_v1_WatchInvalidationsRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_platform_auth_v1_Invalidation__Output>;
  
}

export interface AuthServiceHandlers extends grpc.UntypedServiceImplementation {
  /**
   * Validates the token, then decides `action` on a resource of `resource_tenant` with the
   * policy service, in one call. Invalid token: UNAUTHENTICATED; missing action:
   * INVALID_ARGUMENT; refused: PERMISSION_DENIED (the status message names the deciding policies
   * and the decision id; the trailing metadata carries them as `x-decision-id` and
   * `x-decided-by`, comma-separated).
   */
  Authorize: grpc.handleUnaryCall<_platform_auth_v1_AuthorizeRequest__Output, _platform_auth_v1_AuthorizeResponse>;
  
  /**
   * The public keys the sidecar currently trusts.
   */
  GetJwks: grpc.handleUnaryCall<_platform_auth_v1_GetJwksRequest__Output, _platform_auth_v1_GetJwksResponse>;
  
  /**
   * Revokes an access token through the control plane and applies it locally at once.
   * Needs the internal token in metadata `x-internal-token`.
   */
  RevokeToken: grpc.handleUnaryCall<_platform_auth_v1_RevokeTokenRequest__Output, _platform_auth_v1_RevokeTokenResponse>;
  
  /**
   * Pulls the control plane's revocation feed now; returns once it is applied. Called by
   * the backend right after a revocation or app deletion so its own sidecar knows at once.
   * Needs the internal token in metadata `x-internal-token`.
   */
  SyncRevocations: grpc.handleUnaryCall<_platform_auth_v1_SyncRevocationsRequest__Output, _platform_auth_v1_SyncRevocationsResponse>;
  
  /**
   * Verifies signature (RS256, ES256, PS256; never "none"), typ at+jwt, exp, issuer, audience
   * (the request's `audience`, else the issuer), the deny-list (the token's subject, client,
   * grant, and every actor of its `act` chain) and whether the app still exists. Invalid token:
   * UNAUTHENTICATED.
   */
  ValidateToken: grpc.handleUnaryCall<_platform_auth_v1_ValidateTokenRequest__Output, _platform_auth_v1_ValidateTokenResponse>;
  
  /**
   * Everything that can turn an earlier positive ValidateToken answer into a refusal, as it
   * happens, so the backend can cache those answers exactly. The first message is `ready`;
   * then one message per deny-list entry that changes the deny-list (from the control plane's
   * stream, the periodic full re-read and SyncRevocations alike), one `seq_advanced` whenever
   * the applied revocation seq moves without such an entry, and one `keys_removed` when a
   * key-set refresh drops or replaces a trusted key. Every message carries the sidecar's applied
   * seq at that moment: once a watcher has seen `seq >= n`, it has seen every change that
   * SyncRevocations answering `last_seq = n` applied. The stream never ends on its own; when it
   * does (sidecar shutdown or restart), the watcher must forget what it cached.
   * Needs the internal token in metadata `x-internal-token`.
   */
  WatchInvalidations: grpc.handleServerStreamingCall<_platform_auth_v1_WatchInvalidationsRequest__Output, _platform_auth_v1_Invalidation>;
  
}

export interface AuthServiceDefinition extends grpc.ServiceDefinition {
  Authorize: MethodDefinition<_platform_auth_v1_AuthorizeRequest, _platform_auth_v1_AuthorizeResponse, _platform_auth_v1_AuthorizeRequest__Output, _platform_auth_v1_AuthorizeResponse__Output>
  GetJwks: MethodDefinition<_platform_auth_v1_GetJwksRequest, _platform_auth_v1_GetJwksResponse, _platform_auth_v1_GetJwksRequest__Output, _platform_auth_v1_GetJwksResponse__Output>
  RevokeToken: MethodDefinition<_platform_auth_v1_RevokeTokenRequest, _platform_auth_v1_RevokeTokenResponse, _platform_auth_v1_RevokeTokenRequest__Output, _platform_auth_v1_RevokeTokenResponse__Output>
  SyncRevocations: MethodDefinition<_platform_auth_v1_SyncRevocationsRequest, _platform_auth_v1_SyncRevocationsResponse, _platform_auth_v1_SyncRevocationsRequest__Output, _platform_auth_v1_SyncRevocationsResponse__Output>
  ValidateToken: MethodDefinition<_platform_auth_v1_ValidateTokenRequest, _platform_auth_v1_ValidateTokenResponse, _platform_auth_v1_ValidateTokenRequest__Output, _platform_auth_v1_ValidateTokenResponse__Output>
  WatchInvalidations: MethodDefinition<_platform_auth_v1_WatchInvalidationsRequest, _platform_auth_v1_Invalidation, _platform_auth_v1_WatchInvalidationsRequest__Output, _platform_auth_v1_Invalidation__Output>
}
