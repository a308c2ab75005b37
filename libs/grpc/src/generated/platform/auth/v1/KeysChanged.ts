// Original file: proto/platform/auth/v1/auth.proto

import type { JsonWebKey as _platform_auth_v1_JsonWebKey, JsonWebKey__Output as _platform_auth_v1_JsonWebKey__Output } from '../../../platform/auth/v1/JsonWebKey';

export interface KeysChanged {
  /**
   * Every key trusted from now on.
   */
  'keys'?: (_platform_auth_v1_JsonWebKey)[];
}

export interface KeysChanged__Output {
  /**
   * Every key trusted from now on.
   */
  'keys': (_platform_auth_v1_JsonWebKey__Output)[];
}
