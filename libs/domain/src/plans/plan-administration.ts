import type { AuditActor } from '../audit/audit-trail';
import type { DefinitionRegistry } from '../definitions/definition-registry';
import { PLATFORM_WIDE, type ServiceDefinition } from '../definitions/service-definition';
import { DomainError, validationFailed } from '../errors';
import { SUBSCRIPTION } from './plan-definitions';
import { readSubscription } from './subscription';

/**
 * Plans and the tenants' subscriptions to them, as platform administrators manage them: each a
 * definition every sidecar follows, audited by its registry. A subscription names existing plans
 * only (a plan deleted later gives its tenants nothing, as documented).
 */
export class PlanAdministration {
  constructor(
    private readonly plans: DefinitionRegistry,
    private readonly subscriptions: DefinitionRegistry,
  ) {}

  putPlan(actor: AuditActor, name: string, document: unknown): Promise<ServiceDefinition> {
    return this.plans.put(actor, PLATFORM_WIDE, name, document);
  }

  getPlan(name: string): Promise<ServiceDefinition> {
    return this.plans.get(PLATFORM_WIDE, name);
  }

  listPlans(): Promise<ServiceDefinition[]> {
    return this.plans.list(PLATFORM_WIDE);
  }

  deletePlan(actor: AuditActor, name: string): Promise<void> {
    return this.plans.delete(actor, PLATFORM_WIDE, name);
  }

  async putSubscription(actor: AuditActor, tenant: string, document: unknown): Promise<ServiceDefinition> {
    const subscription = readSubscription(document);
    for (const [i, { plan }] of subscription.assignments.entries()) {
      if (!(await this.planExists(plan)))
        throw validationFailed(`/assignments/${i}/plan: there is no plan ${plan}`);
    }
    return this.subscriptions.put(actor, tenant, SUBSCRIPTION, document);
  }

  getSubscription(tenant: string): Promise<ServiceDefinition> {
    return this.subscriptions.get(tenant, SUBSCRIPTION);
  }

  deleteSubscription(actor: AuditActor, tenant: string): Promise<void> {
    return this.subscriptions.delete(actor, tenant, SUBSCRIPTION);
  }

  private async planExists(name: string): Promise<boolean> {
    try {
      await this.getPlan(name);
      return true;
    } catch (error) {
      if (error instanceof DomainError && error.code === 'not_found') return false;
      throw error;
    }
  }
}
