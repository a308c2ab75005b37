// Original file: proto/platform/ratelimit/v1/ratelimit.proto

import type { Duration as _google_protobuf_Duration, Duration__Output as _google_protobuf_Duration__Output } from '../../../google/protobuf/Duration';

// Original file: proto/platform/ratelimit/v1/ratelimit.proto

export const _platform_ratelimit_v1_CheckRateLimitResponse_Code = {
  UNKNOWN: 'UNKNOWN',
  OK: 'OK',
  OVER_LIMIT: 'OVER_LIMIT',
} as const;

export type _platform_ratelimit_v1_CheckRateLimitResponse_Code =
  | 'UNKNOWN'
  | 0
  | 'OK'
  | 1
  | 'OVER_LIMIT'
  | 2

export type _platform_ratelimit_v1_CheckRateLimitResponse_Code__Output = typeof _platform_ratelimit_v1_CheckRateLimitResponse_Code[keyof typeof _platform_ratelimit_v1_CheckRateLimitResponse_Code]

export interface _platform_ratelimit_v1_CheckRateLimitResponse_DescriptorStatus {
  'code'?: (_platform_ratelimit_v1_CheckRateLimitResponse_Code);
  /**
   * Unset when no rule limits the descriptor.
   */
  'current_limit'?: (_platform_ratelimit_v1_CheckRateLimitResponse_RateLimit | null);
  /**
   * Hits left in the current window (burst included).
   */
  'limit_remaining'?: (number);
  /**
   * Until the window (or the block) ends; on OVER_LIMIT, when to retry.
   */
  'duration_until_reset'?: (_google_protobuf_Duration | null);
}

export interface _platform_ratelimit_v1_CheckRateLimitResponse_DescriptorStatus__Output {
  'code': (_platform_ratelimit_v1_CheckRateLimitResponse_Code__Output);
  /**
   * Unset when no rule limits the descriptor.
   */
  'current_limit': (_platform_ratelimit_v1_CheckRateLimitResponse_RateLimit__Output | null);
  /**
   * Hits left in the current window (burst included).
   */
  'limit_remaining': (number);
  /**
   * Until the window (or the block) ends; on OVER_LIMIT, when to retry.
   */
  'duration_until_reset': (_google_protobuf_Duration__Output | null);
}

/**
 * The limit a descriptor fell under (Envoy's RateLimit).
 */
export interface _platform_ratelimit_v1_CheckRateLimitResponse_RateLimit {
  'requests_per_unit'?: (number);
  'unit'?: (_platform_ratelimit_v1_CheckRateLimitResponse_RateLimit_Unit);
  /**
   * `domain:key=value|key=value`, the counter it counted in.
   */
  'name'?: (string);
}

/**
 * The limit a descriptor fell under (Envoy's RateLimit).
 */
export interface _platform_ratelimit_v1_CheckRateLimitResponse_RateLimit__Output {
  'requests_per_unit': (number);
  'unit': (_platform_ratelimit_v1_CheckRateLimitResponse_RateLimit_Unit__Output);
  /**
   * `domain:key=value|key=value`, the counter it counted in.
   */
  'name': (string);
}

// Original file: proto/platform/ratelimit/v1/ratelimit.proto

export const _platform_ratelimit_v1_CheckRateLimitResponse_RateLimit_Unit = {
  UNKNOWN: 'UNKNOWN',
  SECOND: 'SECOND',
  MINUTE: 'MINUTE',
  HOUR: 'HOUR',
  DAY: 'DAY',
} as const;

export type _platform_ratelimit_v1_CheckRateLimitResponse_RateLimit_Unit =
  | 'UNKNOWN'
  | 0
  | 'SECOND'
  | 1
  | 'MINUTE'
  | 2
  | 'HOUR'
  | 3
  | 'DAY'
  | 4

export type _platform_ratelimit_v1_CheckRateLimitResponse_RateLimit_Unit__Output = typeof _platform_ratelimit_v1_CheckRateLimitResponse_RateLimit_Unit[keyof typeof _platform_ratelimit_v1_CheckRateLimitResponse_RateLimit_Unit]

export interface CheckRateLimitResponse {
  /**
   * OVER_LIMIT when any descriptor is over its limit.
   */
  'overall_code'?: (_platform_ratelimit_v1_CheckRateLimitResponse_Code);
  /**
   * One per request descriptor, in order.
   */
  'statuses'?: (_platform_ratelimit_v1_CheckRateLimitResponse_DescriptorStatus)[];
}

export interface CheckRateLimitResponse__Output {
  /**
   * OVER_LIMIT when any descriptor is over its limit.
   */
  'overall_code': (_platform_ratelimit_v1_CheckRateLimitResponse_Code__Output);
  /**
   * One per request descriptor, in order.
   */
  'statuses': (_platform_ratelimit_v1_CheckRateLimitResponse_DescriptorStatus__Output)[];
}
