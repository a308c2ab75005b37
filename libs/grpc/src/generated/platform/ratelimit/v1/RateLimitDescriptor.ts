// Original file: proto/platform/ratelimit/v1/ratelimit.proto


export interface _platform_ratelimit_v1_RateLimitDescriptor_Entry {
  'key'?: (string);
  'value'?: (string);
}

export interface _platform_ratelimit_v1_RateLimitDescriptor_Entry__Output {
  'key': (string);
  'value': (string);
}

/**
 * One descriptor: an ordered list of key/value entries (Envoy's RateLimitDescriptor).
 */
export interface RateLimitDescriptor {
  'entries'?: (_platform_ratelimit_v1_RateLimitDescriptor_Entry)[];
}

/**
 * One descriptor: an ordered list of key/value entries (Envoy's RateLimitDescriptor).
 */
export interface RateLimitDescriptor__Output {
  'entries': (_platform_ratelimit_v1_RateLimitDescriptor_Entry__Output)[];
}
