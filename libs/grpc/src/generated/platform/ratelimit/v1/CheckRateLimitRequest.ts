// Original file: proto/platform/ratelimit/v1/ratelimit.proto

import type { RateLimitDescriptor as _platform_ratelimit_v1_RateLimitDescriptor, RateLimitDescriptor__Output as _platform_ratelimit_v1_RateLimitDescriptor__Output } from '../../../platform/ratelimit/v1/RateLimitDescriptor';

export interface CheckRateLimitRequest {
  /**
   * The rules' domain (Envoy field 1).
   */
  'domain'?: (string);
  /**
   * Each is checked and counted (Envoy field 2).
   */
  'descriptors'?: (_platform_ratelimit_v1_RateLimitDescriptor)[];
  /**
   * How many hits to count (Envoy field 3); 0 means 1.
   */
  'hits_addend'?: (number);
  /**
   * The caller's access token.
   */
  'token'?: (string);
  /**
   * The tenant whose rules apply; empty: the caller's own (a user's, a bound app's). An app bound
   * to no tenant names one (INVALID_ARGUMENT otherwise). A user or a bound app naming another
   * tenant than its own: PERMISSION_DENIED (a global_admin user may name any).
   */
  'tenant'?: (string);
}

export interface CheckRateLimitRequest__Output {
  /**
   * The rules' domain (Envoy field 1).
   */
  'domain': (string);
  /**
   * Each is checked and counted (Envoy field 2).
   */
  'descriptors': (_platform_ratelimit_v1_RateLimitDescriptor__Output)[];
  /**
   * How many hits to count (Envoy field 3); 0 means 1.
   */
  'hits_addend': (number);
  /**
   * The caller's access token.
   */
  'token': (string);
  /**
   * The tenant whose rules apply; empty: the caller's own (a user's, a bound app's). An app bound
   * to no tenant names one (INVALID_ARGUMENT otherwise). A user or a bound app naming another
   * tenant than its own: PERMISSION_DENIED (a global_admin user may name any).
   */
  'tenant': (string);
}
