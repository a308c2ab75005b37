import type { AuditActor, AuditTrail } from '../audit/audit-trail';
import type { Clock } from '../clock';
import { notFound, validationFailed } from '../errors';
import type { Transactor } from '../storage';
import { readRateLimitRules } from './rate-limit-rules';
import type { DefinitionStore, ServiceDefinition } from '../definitions/service-definition';

const NAME = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * The rate limit rules of each tenant's domains, as admins manage them (docs/rate-limits.md):
 * checked, stored as definitions every sidecar follows, audited in the same transaction.
 */
export class RateLimitRuleRegistry {
  constructor(
    private readonly definitions: Pick<DefinitionStore, 'findDefinition' | 'listDefinitions'>,
    private readonly transactor: Transactor,
    private readonly trail: AuditTrail,
    private readonly clock: Clock,
  ) {}

  async put(
    actor: AuditActor,
    tenant: string,
    domain: string,
    document: unknown,
  ): Promise<ServiceDefinition> {
    checkNames(tenant, domain);
    const rules = readRateLimitRules(document);
    return this.write(actor, tenant, domain, { ...rules }, 'ratelimit.rules_changed');
  }

  async delete(actor: AuditActor, tenant: string, domain: string): Promise<void> {
    await this.get(tenant, domain);
    await this.write(actor, tenant, domain, null, 'ratelimit.rules_deleted');
  }

  async get(tenant: string, domain: string): Promise<ServiceDefinition> {
    checkNames(tenant, domain);
    const found = await this.definitions.findDefinition('rate_limits', tenant, domain);
    if (!found) throw notFound(`rate limit rules of domain ${domain} in tenant ${tenant}`);
    return found;
  }

  list(tenant: string): Promise<ServiceDefinition[]> {
    checkNames(tenant, 'any');
    return this.definitions.listDefinitions('rate_limits', tenant);
  }

  private write(
    actor: AuditActor,
    tenant: string,
    domain: string,
    document: Record<string, unknown> | null,
    action: string,
  ): Promise<ServiceDefinition> {
    const now = this.clock.now();
    return this.transactor.inTransaction(async (stores) => {
      const written = await stores.definitions.putDefinition(
        { kind: 'rate_limits', tenant, name: domain, document },
        now,
      );
      await stores.audit.appendAuditRecords([
        this.trail.record({
          actor,
          action,
          target: domain,
          tenant,
          attributes: { version: String(written.version) },
          occurredAt: now,
        }),
      ]);
      return written;
    });
  }
}

function checkNames(tenant: string, domain: string): void {
  if (!NAME.test(tenant)) throw validationFailed('tenant must be 1 to 64 of A-Z a-z 0-9 . _ -');
  if (!NAME.test(domain)) throw validationFailed('domain must be 1 to 64 of A-Z a-z 0-9 . _ -');
}
