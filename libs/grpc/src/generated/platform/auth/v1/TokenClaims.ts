// Original file: proto/platform/auth/v1/auth.proto

import type { Actor as _platform_auth_v1_Actor, Actor__Output as _platform_auth_v1_Actor__Output } from '../../../platform/auth/v1/Actor';
import type { Confirmation as _platform_auth_v1_Confirmation, Confirmation__Output as _platform_auth_v1_Confirmation__Output } from '../../../platform/auth/v1/Confirmation';
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
  /**
   * Who acts for `sub` (token exchange, impersonation); unset when the subject acts itself.
   */
  'act'?: (_platform_auth_v1_Actor | null);
  /**
   * "full" or "read_only" on an impersonation token (`sub` the impersonated user, `act.sub` the
   * impersonator; read_only is allowed only `*.read` actions), '' on any other token.
   */
  'impersonation'?: (string);
  /**
   * The key the token is bound to (DPoP, RFC 9449); unset for a Bearer token.
   */
  'cnf'?: (_platform_auth_v1_Confirmation | null);
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
  /**
   * Who acts for `sub` (token exchange, impersonation); unset when the subject acts itself.
   */
  'act': (_platform_auth_v1_Actor__Output | null);
  /**
   * "full" or "read_only" on an impersonation token (`sub` the impersonated user, `act.sub` the
   * impersonator; read_only is allowed only `*.read` actions), '' on any other token.
   */
  'impersonation': (string);
  /**
   * The key the token is bound to (DPoP, RFC 9449); unset for a Bearer token.
   */
  'cnf': (_platform_auth_v1_Confirmation__Output | null);
}
