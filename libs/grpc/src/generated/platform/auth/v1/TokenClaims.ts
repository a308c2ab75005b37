// Original file: proto/platform/auth/v1/auth.proto

import type { Long } from '@grpc/proto-loader';

export interface TokenClaims {
  'iss'?: (string);
  'sub'?: (string);
  'aud'?: (string);
  'exp'?: (number | string | Long);
  'iat'?: (number | string | Long);
  'jti'?: (string);
  'client_id'?: (string);
  'scope'?: (string);
  /**
   * User tokens only.
   */
  'tenant'?: (string);
  'roles'?: (string)[];
  /**
   * Authorization grant the token belongs to (user tokens only).
   */
  'grant_id'?: (string);
}

export interface TokenClaims__Output {
  'iss': (string);
  'sub': (string);
  'aud': (string);
  'exp': (number);
  'iat': (number);
  'jti': (string);
  'client_id': (string);
  'scope': (string);
  /**
   * User tokens only.
   */
  'tenant': (string);
  'roles': (string)[];
  /**
   * Authorization grant the token belongs to (user tokens only).
   */
  'grant_id': (string);
}
