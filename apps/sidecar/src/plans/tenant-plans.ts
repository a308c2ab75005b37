import { Inject, Injectable } from '@nestjs/common';
import { PlanCatalog, type Clock, type Entitlements } from '@platform/domain';
import { CLOCK } from '../clock';
import { DefinitionSync } from '../definitions/definition-sync';
import { SidecarError } from '../errors';

/**
 * Each tenant's entitlements as this sidecar holds them (docs/plans.md): the domain's PlanCatalog
 * over the plans and subscriptions DefinitionSync follows (a change applies within a second),
 * read once per version, the rule applied at the moment of each call (an assignment or an
 * override starts and ends on its own dates).
 */
@Injectable()
export class TenantPlans {
  private readonly catalog: PlanCatalog;

  constructor(
    private readonly definitions: DefinitionSync,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    this.catalog = new PlanCatalog((kind, tenant, name) => {
      const stored = definitions.find(kind, tenant, name);
      return stored?.document ? { version: stored.version, document: stored.document } : undefined;
    });
  }

  get loaded(): boolean {
    return this.definitions.isLoaded;
  }

  /** The tenant's plan, features and quotas now. Before the definitions are loaded: UNAVAILABLE. */
  entitlements(tenant: string): Entitlements {
    if (!this.loaded) throw new SidecarError('not_ready', 'plans and subscriptions are loading');
    return this.catalog.entitlements(tenant, this.clock.now());
  }
}
