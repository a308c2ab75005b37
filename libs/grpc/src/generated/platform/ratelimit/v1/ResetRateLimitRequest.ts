// Original file: proto/platform/ratelimit/v1/ratelimit.proto

import type { RateLimitDescriptor as _platform_ratelimit_v1_RateLimitDescriptor, RateLimitDescriptor__Output as _platform_ratelimit_v1_RateLimitDescriptor__Output } from '../../../platform/ratelimit/v1/RateLimitDescriptor';

export interface ResetRateLimitRequest {
  'domain'?: (string);
  'descriptor'?: (_platform_ratelimit_v1_RateLimitDescriptor | null);
  'token'?: (string);
  'tenant'?: (string);
}

export interface ResetRateLimitRequest__Output {
  'domain': (string);
  'descriptor': (_platform_ratelimit_v1_RateLimitDescriptor__Output | null);
  'token': (string);
  'tenant': (string);
}
