import { Controller } from '@nestjs/common';
import { GrpcMethod } from '@nestjs/microservices';
import type { DescriptorEntry } from '@platform/domain';
import type { CheckRateLimitAnswer, CheckRateLimitRequest, ResetRateLimitRequest } from '@platform/grpc';
import { AuthorizationError, invalidArgument } from '../authorization/authorization.error';
import { TokenAuthorizer } from '../authorization/token-authorizer';
import { SidecarError } from '../errors';
import { AuditRecorder } from '../audit/audit-recorder';
import { RateLimitChecker } from '../ratelimit/rate-limit-checker';

type Descriptor = { entries?: Array<{ key?: string; value?: string }> } | null | undefined;

const UNITS = { second: 'SECOND', minute: 'MINUTE', hour: 'HOUR', day: 'DAY' } as const;
/** Hits one call may count; more is surely a mistake. */
const MAX_HITS = 1_000_000;

/**
 * `platform.ratelimit.v1.RateLimitService` (docs/rate-limits.md): Envoy's rate limit service
 * messages, the tenant's rules as every sidecar holds them, counters shared through Redis. The
 * tenant is the one the request names, else the caller's own (an unbound app names one); the
 * caller needs `ratelimit.check` there, and a user or a bound app reaches its own tenant only.
 */
@Controller()
export class RateLimitGrpcController {
  constructor(
    private readonly authorizer: TokenAuthorizer,
    private readonly checker: RateLimitChecker,
    private readonly audit: AuditRecorder,
  ) {}

  @GrpcMethod('RateLimitService', 'CheckRateLimit')
  async check({
    domain = '',
    descriptors = [],
    hits_addend: hitsAddend = 0,
    token = '',
    tenant = '',
  }: Partial<CheckRateLimitRequest>): Promise<CheckRateLimitAnswer> {
    const { tenant: scope } = await this.authorizer.authorizeRpc('RateLimitService/CheckRateLimit', {
      token,
      tenant,
    });
    requireDomain(domain);
    if (descriptors.length === 0) throw invalidArgument('descriptors must name at least one descriptor');
    const hits = hitsAddend === 0 ? 1 : hitsAddend;
    if (hits > MAX_HITS) throw invalidArgument(`hits_addend must be at most ${MAX_HITS}`);
    this.requireRules();
    const statuses = [];
    for (const descriptor of descriptors) {
      const verdict = await this.checker.check(scope, domain, entriesOf(descriptor), hits);
      statuses.push(
        verdict.limited
          ? {
              code: verdict.allowed ? ('OK' as const) : ('OVER_LIMIT' as const),
              current_limit: {
                requests_per_unit: verdict.limit.requests_per_unit,
                unit: UNITS[verdict.limit.unit],
                name: verdict.name,
              },
              limit_remaining: verdict.remaining,
              duration_until_reset: { seconds: verdict.resetSeconds, nanos: 0 },
            }
          : { code: 'OK' as const },
      );
    }
    return {
      overall_code: statuses.some((s) => s.code === 'OVER_LIMIT') ? 'OVER_LIMIT' : 'OK',
      statuses,
    };
  }

  /**
   * A platform administrator's act (as for the rules themselves): audited in the tenant's log
   * before the count is forgotten, so no reset goes unrecorded.
   */
  @GrpcMethod('RateLimitService', 'ResetRateLimit')
  async reset({ domain = '', descriptor, token = '', tenant = '' }: Partial<ResetRateLimitRequest>) {
    const { claims, tenant: scope } = await this.authorizer.authorizeRpc('RateLimitService/ResetRateLimit', {
      token,
      tenant,
    });
    requireDomain(domain);
    this.requireRules();
    const entries = entriesOf(descriptor);
    if (!this.checker.covers(scope, domain, entries)) {
      throw new AuthorizationError('not_found', `no rule of domain ${domain} limits that descriptor`);
    }
    await this.audit.record(claims, scope, {
      action: 'ratelimit.counter_reset',
      target: domain,
      attributes: { descriptor: entries.map(({ key, value }) => `${key}=${value}`).join('|') },
    });
    await this.checker.reset(scope, domain, entries);
    return {};
  }

  /** Until the rules are loaded nothing can be decided: fail closed, as for tokens. */
  private requireRules(): void {
    if (!this.checker.rulesLoaded) throw new SidecarError('not_ready', 'rate limit rules are loading');
  }
}

function requireDomain(domain: string): void {
  if (domain === '') throw invalidArgument('domain is required');
}

function entriesOf(descriptor: Descriptor): DescriptorEntry[] {
  const entries = descriptor?.entries ?? [];
  if (entries.length === 0) throw invalidArgument('a descriptor needs at least one entry');
  return entries.map(({ key = '', value = '' }) => {
    if (key === '') throw invalidArgument('every descriptor entry needs a key');
    return { key, value };
  });
}
