import type { RateLimitDecision } from './rate-limit';

/**
 * The IETF RateLimit header fields (draft-ietf-httpapi-ratelimit-headers: `RateLimit-Policy:
 * "name";q=<quota>;w=<window>` and `RateLimit: "name";r=<remaining>;t=<reset>`) and
 * `Retry-After` (RFC 9110) for a refusal.
 */
export function rateLimitHeaders(decision: RateLimitDecision): Record<string, string> {
  const { name, quota, windowSeconds } = decision.policy;
  return {
    'ratelimit-policy': `"${name}";q=${quota};w=${windowSeconds}`,
    ratelimit: `"${name}";r=${decision.remaining};t=${decision.resetSeconds}`,
    ...(decision.allowed ? {} : { 'retry-after': String(decision.resetSeconds) }),
  };
}
