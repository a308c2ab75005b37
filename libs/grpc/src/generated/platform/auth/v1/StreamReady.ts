// Original file: proto/platform/auth/v1/auth.proto

import type { JsonWebKey as _platform_auth_v1_JsonWebKey, JsonWebKey__Output as _platform_auth_v1_JsonWebKey__Output } from '../../../platform/auth/v1/JsonWebKey';
import type { DenyListEntry as _platform_auth_v1_DenyListEntry, DenyListEntry__Output as _platform_auth_v1_DenyListEntry__Output } from '../../../platform/auth/v1/DenyListEntry';

/**
 * The state a watcher starts from: with it and every later message, a backend can judge an
 * access token itself exactly as ValidateToken would (keys, then deny-list).
 */
export interface StreamReady {
  /**
   * The trusted public keys.
   */
  'keys'?: (_platform_auth_v1_JsonWebKey)[];
  /**
   * Every deny-list entry the sidecar holds (those not yet expired).
   */
  'deny_list'?: (_platform_auth_v1_DenyListEntry)[];
}

/**
 * The state a watcher starts from: with it and every later message, a backend can judge an
 * access token itself exactly as ValidateToken would (keys, then deny-list).
 */
export interface StreamReady__Output {
  /**
   * The trusted public keys.
   */
  'keys': (_platform_auth_v1_JsonWebKey__Output)[];
  /**
   * Every deny-list entry the sidecar holds (those not yet expired).
   */
  'deny_list': (_platform_auth_v1_DenyListEntry__Output)[];
}
