// Original file: proto/platform/auth/v1/auth.proto

import type { Actor as _platform_auth_v1_Actor, Actor__Output as _platform_auth_v1_Actor__Output } from '../../../platform/auth/v1/Actor';

/**
 * An actor of a delegated or impersonation token (RFC 8693 section 4.1): who acts for the
 * token's subject. The outermost is the current actor; `act` nests the earlier ones.
 */
export interface Actor {
  'sub'?: (string);
  /**
   * Empty when the token does not name the actor's client.
   */
  'client_id'?: (string);
  'act'?: (_platform_auth_v1_Actor | null);
}

/**
 * An actor of a delegated or impersonation token (RFC 8693 section 4.1): who acts for the
 * token's subject. The outermost is the current actor; `act` nests the earlier ones.
 */
export interface Actor__Output {
  'sub': (string);
  /**
   * Empty when the token does not name the actor's client.
   */
  'client_id': (string);
  'act': (_platform_auth_v1_Actor__Output | null);
}
