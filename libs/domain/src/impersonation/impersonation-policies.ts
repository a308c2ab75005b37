import { auditActorOf, type AuditTrail } from '../audit/audit-trail';
import type { Clock } from '../clock';
import { validationFailed } from '../errors';
import { TENANT_PATTERN } from '../registry/application';
import type { Transactor } from '../storage';
import { type ActingPrincipal, assertReachesTenant } from '../users/user-administration';
import {
  DEFAULT_IMPERSONATION_MODE,
  type ImpersonationMode,
  type ImpersonationPolicyStore,
} from './impersonation-policy';

/**
 * A tenant's impersonation policy (docs/tokens.md). The backend decided users.read / users.write
 * on the tenant; this keeps the tenant the boundary behind it and audits each change with it.
 */
export class ImpersonationPolicies {
  constructor(
    private readonly policies: Pick<ImpersonationPolicyStore, 'findImpersonationPolicy'>,
    private readonly transactor: Transactor,
    private readonly trail: AuditTrail,
    private readonly clock: Clock,
  ) {}

  async get(principal: ActingPrincipal, tenant: string): Promise<ImpersonationMode> {
    this.assertReaches(principal, tenant);
    return (await this.policies.findImpersonationPolicy(tenant)) ?? DEFAULT_IMPERSONATION_MODE;
  }

  async put(principal: ActingPrincipal, tenant: string, mode: ImpersonationMode): Promise<void> {
    this.assertReaches(principal, tenant);
    const now = this.clock.now();
    await this.transactor.inTransaction(async (stores) => {
      const before =
        (await stores.impersonationPolicies.findImpersonationPolicy(tenant)) ?? DEFAULT_IMPERSONATION_MODE;
      await stores.impersonationPolicies.putImpersonationPolicy(tenant, mode, now);
      await stores.audit.appendAuditRecords([
        this.trail.record({
          actor: auditActorOf(principal),
          action: 'tenant.impersonation_policy_changed',
          target: tenant,
          tenant,
          attributes: { from: before, mode },
          occurredAt: now,
        }),
      ]);
    });
  }

  private assertReaches(principal: ActingPrincipal, tenant: string): void {
    if (!TENANT_PATTERN.test(tenant)) throw validationFailed('tenant must be 1 to 64 of A-Z a-z 0-9 . _ -');
    assertReachesTenant(principal, tenant);
  }
}
