import { Injectable } from '@nestjs/common';
import {
  type DescriptorEntry,
  matchDescriptor,
  RATE_LIMIT_UNITS,
  type RateLimitSpec,
  readRateLimitRules,
  type RateLimitRules,
} from '@platform/domain';
import type { RateLimit } from '@platform/ratelimit';
import { DefinitionSync } from '../definitions/definition-sync';
import { SidecarCounters } from './sidecar-counters';

/** What one descriptor got: no rule, or a rule's verdict. */
export type DescriptorVerdict =
  | { limited: false }
  | {
      limited: true;
      allowed: boolean;
      limit: RateLimitSpec;
      /** `domain:key=value|...`, the counter. */
      name: string;
      remaining: number;
      resetSeconds: number;
    };

/**
 * The rate limit service's decisions: the tenant's rules of the domain (from DefinitionSync),
 * matched as Envoy's service does, counted by SidecarCounters (memory, or Redis shared by every
 * sidecar). The quota of a window
 * is `requests_per_unit + burst`; a changed limit starts its own counters.
 */
@Injectable()
export class RateLimitChecker {
  private readonly limits = new Map<string, RateLimit>();
  private readonly parsed = new Map<string, { version: number; rules: RateLimitRules }>();

  constructor(
    private readonly definitions: DefinitionSync,
    private readonly counters: SidecarCounters,
  ) {}

  get rulesLoaded(): boolean {
    return this.definitions.isLoaded;
  }

  async check(
    tenant: string,
    domain: string,
    entries: DescriptorEntry[],
    hits: number,
  ): Promise<DescriptorVerdict> {
    const rules = this.rulesOf(tenant, domain);
    const match = rules && matchDescriptor(rules, entries);
    if (!match) return { limited: false };
    const decision = await this.limitFor(tenant, domain, match.limit).consume(match.counterKey, hits);
    return {
      limited: true,
      allowed: decision.allowed,
      limit: match.limit,
      name: `${domain}:${match.counterKey}`,
      remaining: decision.remaining,
      resetSeconds: decision.resetSeconds,
    };
  }

  /** Whether a rule of the tenant's domain limits the descriptor. */
  covers(tenant: string, domain: string, entries: DescriptorEntry[]): boolean {
    const rules = this.rulesOf(tenant, domain);
    return rules !== undefined && matchDescriptor(rules, entries) !== undefined;
  }

  /** Forgets the descriptor's count (nothing when no rule limits it). */
  async reset(tenant: string, domain: string, entries: DescriptorEntry[]): Promise<void> {
    const rules = this.rulesOf(tenant, domain);
    const match = rules && matchDescriptor(rules, entries);
    if (match) await this.limitFor(tenant, domain, match.limit).reset(match.counterKey);
  }

  private rulesOf(tenant: string, domain: string): RateLimitRules | undefined {
    const definition = this.definitions.find('rate_limits', tenant, domain);
    if (!definition?.document) return undefined;
    const key = `${tenant}\u0000${domain}`;
    const cached = this.parsed.get(key);
    if (cached?.version === definition.version) return cached.rules;
    const rules = readRateLimitRules(definition.document);
    this.parsed.set(key, { version: definition.version, rules });
    return rules;
  }

  private limitFor(tenant: string, domain: string, spec: RateLimitSpec): RateLimit {
    const quota = spec.requests_per_unit + (spec.burst ?? 0);
    const windowSeconds = RATE_LIMIT_UNITS[spec.unit];
    const name = `${tenant}:${domain}:${quota}/${windowSeconds}`;
    let limit = this.limits.get(name);
    if (!limit) {
      limit = this.counters.limit({ name, quota, windowSeconds });
      this.limits.set(name, limit);
    }
    return limit;
  }
}
