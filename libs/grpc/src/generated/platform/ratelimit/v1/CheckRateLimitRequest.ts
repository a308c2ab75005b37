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
   * The caller's access token: the tenant whose rules apply is its own.
   */
  'token'?: (string);
  /**
   * The tenant whose rules apply, for a platform admin or a service token (which has none; empty:
   * the default tenant). A user naming another tenant than its own: PERMISSION_DENIED.
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
   * The caller's access token: the tenant whose rules apply is its own.
   */
  'token': (string);
  /**
   * The tenant whose rules apply, for a platform admin or a service token (which has none; empty:
   * the default tenant). A user naming another tenant than its own: PERMISSION_DENIED.
   */
  'tenant': (string);
}
