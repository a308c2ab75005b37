import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { Actor as _platform_auth_v1_Actor, Actor__Output as _platform_auth_v1_Actor__Output } from './platform/auth/v1/Actor';
import type { AuthServiceClient as _platform_auth_v1_AuthServiceClient, AuthServiceDefinition as _platform_auth_v1_AuthServiceDefinition } from './platform/auth/v1/AuthService';
import type { AuthorizeRequest as _platform_auth_v1_AuthorizeRequest, AuthorizeRequest__Output as _platform_auth_v1_AuthorizeRequest__Output } from './platform/auth/v1/AuthorizeRequest';
import type { AuthorizeResponse as _platform_auth_v1_AuthorizeResponse, AuthorizeResponse__Output as _platform_auth_v1_AuthorizeResponse__Output } from './platform/auth/v1/AuthorizeResponse';
import type { Confirmation as _platform_auth_v1_Confirmation, Confirmation__Output as _platform_auth_v1_Confirmation__Output } from './platform/auth/v1/Confirmation';
import type { DenyListEntry as _platform_auth_v1_DenyListEntry, DenyListEntry__Output as _platform_auth_v1_DenyListEntry__Output } from './platform/auth/v1/DenyListEntry';
import type { GetJwksRequest as _platform_auth_v1_GetJwksRequest, GetJwksRequest__Output as _platform_auth_v1_GetJwksRequest__Output } from './platform/auth/v1/GetJwksRequest';
import type { GetJwksResponse as _platform_auth_v1_GetJwksResponse, GetJwksResponse__Output as _platform_auth_v1_GetJwksResponse__Output } from './platform/auth/v1/GetJwksResponse';
import type { Invalidation as _platform_auth_v1_Invalidation, Invalidation__Output as _platform_auth_v1_Invalidation__Output } from './platform/auth/v1/Invalidation';
import type { JsonWebKey as _platform_auth_v1_JsonWebKey, JsonWebKey__Output as _platform_auth_v1_JsonWebKey__Output } from './platform/auth/v1/JsonWebKey';
import type { KeysChanged as _platform_auth_v1_KeysChanged, KeysChanged__Output as _platform_auth_v1_KeysChanged__Output } from './platform/auth/v1/KeysChanged';
import type { RevokeTokenRequest as _platform_auth_v1_RevokeTokenRequest, RevokeTokenRequest__Output as _platform_auth_v1_RevokeTokenRequest__Output } from './platform/auth/v1/RevokeTokenRequest';
import type { RevokeTokenResponse as _platform_auth_v1_RevokeTokenResponse, RevokeTokenResponse__Output as _platform_auth_v1_RevokeTokenResponse__Output } from './platform/auth/v1/RevokeTokenResponse';
import type { SeqAdvanced as _platform_auth_v1_SeqAdvanced, SeqAdvanced__Output as _platform_auth_v1_SeqAdvanced__Output } from './platform/auth/v1/SeqAdvanced';
import type { StreamReady as _platform_auth_v1_StreamReady, StreamReady__Output as _platform_auth_v1_StreamReady__Output } from './platform/auth/v1/StreamReady';
import type { SyncRevocationsRequest as _platform_auth_v1_SyncRevocationsRequest, SyncRevocationsRequest__Output as _platform_auth_v1_SyncRevocationsRequest__Output } from './platform/auth/v1/SyncRevocationsRequest';
import type { SyncRevocationsResponse as _platform_auth_v1_SyncRevocationsResponse, SyncRevocationsResponse__Output as _platform_auth_v1_SyncRevocationsResponse__Output } from './platform/auth/v1/SyncRevocationsResponse';
import type { TokenClaims as _platform_auth_v1_TokenClaims, TokenClaims__Output as _platform_auth_v1_TokenClaims__Output } from './platform/auth/v1/TokenClaims';
import type { ValidateTokenRequest as _platform_auth_v1_ValidateTokenRequest, ValidateTokenRequest__Output as _platform_auth_v1_ValidateTokenRequest__Output } from './platform/auth/v1/ValidateTokenRequest';
import type { ValidateTokenResponse as _platform_auth_v1_ValidateTokenResponse, ValidateTokenResponse__Output as _platform_auth_v1_ValidateTokenResponse__Output } from './platform/auth/v1/ValidateTokenResponse';
import type { WatchInvalidationsRequest as _platform_auth_v1_WatchInvalidationsRequest, WatchInvalidationsRequest__Output as _platform_auth_v1_WatchInvalidationsRequest__Output } from './platform/auth/v1/WatchInvalidationsRequest';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  platform: {
    auth: {
      v1: {
        Actor: MessageTypeDefinition<_platform_auth_v1_Actor, _platform_auth_v1_Actor__Output>
        AuthService: SubtypeConstructor<typeof grpc.Client, _platform_auth_v1_AuthServiceClient> & { service: _platform_auth_v1_AuthServiceDefinition }
        AuthorizeRequest: MessageTypeDefinition<_platform_auth_v1_AuthorizeRequest, _platform_auth_v1_AuthorizeRequest__Output>
        AuthorizeResponse: MessageTypeDefinition<_platform_auth_v1_AuthorizeResponse, _platform_auth_v1_AuthorizeResponse__Output>
        Confirmation: MessageTypeDefinition<_platform_auth_v1_Confirmation, _platform_auth_v1_Confirmation__Output>
        DenyListEntry: MessageTypeDefinition<_platform_auth_v1_DenyListEntry, _platform_auth_v1_DenyListEntry__Output>
        GetJwksRequest: MessageTypeDefinition<_platform_auth_v1_GetJwksRequest, _platform_auth_v1_GetJwksRequest__Output>
        GetJwksResponse: MessageTypeDefinition<_platform_auth_v1_GetJwksResponse, _platform_auth_v1_GetJwksResponse__Output>
        Invalidation: MessageTypeDefinition<_platform_auth_v1_Invalidation, _platform_auth_v1_Invalidation__Output>
        JsonWebKey: MessageTypeDefinition<_platform_auth_v1_JsonWebKey, _platform_auth_v1_JsonWebKey__Output>
        KeysChanged: MessageTypeDefinition<_platform_auth_v1_KeysChanged, _platform_auth_v1_KeysChanged__Output>
        RevokeTokenRequest: MessageTypeDefinition<_platform_auth_v1_RevokeTokenRequest, _platform_auth_v1_RevokeTokenRequest__Output>
        RevokeTokenResponse: MessageTypeDefinition<_platform_auth_v1_RevokeTokenResponse, _platform_auth_v1_RevokeTokenResponse__Output>
        SeqAdvanced: MessageTypeDefinition<_platform_auth_v1_SeqAdvanced, _platform_auth_v1_SeqAdvanced__Output>
        StreamReady: MessageTypeDefinition<_platform_auth_v1_StreamReady, _platform_auth_v1_StreamReady__Output>
        SyncRevocationsRequest: MessageTypeDefinition<_platform_auth_v1_SyncRevocationsRequest, _platform_auth_v1_SyncRevocationsRequest__Output>
        SyncRevocationsResponse: MessageTypeDefinition<_platform_auth_v1_SyncRevocationsResponse, _platform_auth_v1_SyncRevocationsResponse__Output>
        TokenClaims: MessageTypeDefinition<_platform_auth_v1_TokenClaims, _platform_auth_v1_TokenClaims__Output>
        ValidateTokenRequest: MessageTypeDefinition<_platform_auth_v1_ValidateTokenRequest, _platform_auth_v1_ValidateTokenRequest__Output>
        ValidateTokenResponse: MessageTypeDefinition<_platform_auth_v1_ValidateTokenResponse, _platform_auth_v1_ValidateTokenResponse__Output>
        WatchInvalidationsRequest: MessageTypeDefinition<_platform_auth_v1_WatchInvalidationsRequest, _platform_auth_v1_WatchInvalidationsRequest__Output>
      }
    }
  }
}

