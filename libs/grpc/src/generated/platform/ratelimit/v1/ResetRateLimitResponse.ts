// Original file: proto/platform/ratelimit/v1/ratelimit.proto


export interface ResetRateLimitResponse {
}

export interface ResetRateLimitResponse__Output {
}
