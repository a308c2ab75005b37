// Original file: proto/platform/auth/v1/auth.proto

import type { JsonWebKey as _platform_auth_v1_JsonWebKey, JsonWebKey__Output as _platform_auth_v1_JsonWebKey__Output } from '../../../platform/auth/v1/JsonWebKey';

export interface GetJwksResponse {
  'keys'?: (_platform_auth_v1_JsonWebKey)[];
}

export interface GetJwksResponse__Output {
  'keys': (_platform_auth_v1_JsonWebKey__Output)[];
}
