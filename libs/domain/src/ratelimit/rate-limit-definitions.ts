import type { DefinitionRules } from '../definitions/definition-registry';
import { readRateLimitRules } from './rate-limit-rules';

/** Rate limit rules as definitions: one per tenant and domain (docs/rate-limits.md). */
export const RATE_LIMIT_RULES: DefinitionRules = {
  kind: 'rate_limits',
  noun: 'rate limit rules of domain',
  read: (document) => ({ ...readRateLimitRules(document) }),
  actions: { changed: 'ratelimit.rules_changed', deleted: 'ratelimit.rules_deleted' },
};
