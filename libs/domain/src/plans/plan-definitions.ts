import type { DefinitionRules } from '../definitions/definition-registry';
import { PLATFORM_WIDE } from '../definitions/service-definition';
import { entitlementsAt, type Entitlements } from './entitlements';
import { readPlan, type Plan } from './plan';
import { readSubscription, subscriptionDocument, type Subscription } from './subscription';

/** Plans are the platform's, not a tenant's: stored under PLATFORM_WIDE (docs/plans.md). */
export const PLAN_DEFINITIONS: DefinitionRules = {
  kind: 'plans',
  noun: 'plan',
  read: (document) => ({ ...readPlan(document) }),
  actions: { changed: 'plan.changed', deleted: 'plan.deleted' },
  platformWide: true,
};

/** A tenant's assignments and overrides: one definition per tenant, named SUBSCRIPTION. */
export const SUBSCRIPTION_DEFINITIONS: DefinitionRules = {
  kind: 'subscriptions',
  noun: 'subscription',
  read: (document) => subscriptionDocument(readSubscription(document)),
  actions: { changed: 'subscription.changed', deleted: 'subscription.deleted' },
};

export const SUBSCRIPTION = 'subscription';

/** A stored definition as a reader sees it: its document and version. */
export interface StoredDocument {
  version: number;
  document: Record<string, unknown>;
}

/**
 * Entitlements from the definitions a process holds (the sidecar's copy of the feed, the control
 * plane's own): plans and subscriptions read once per version, the rule (`entitlementsAt`)
 * applied per call, since it depends on the instant.
 */
export class PlanCatalog {
  private readonly plans = new Map<string, { version: number; plan: Plan }>();
  private readonly subscriptions = new Map<string, { version: number; subscription: Subscription }>();

  constructor(private readonly find: (kind: 'plans' | 'subscriptions', tenant: string, name: string) => StoredDocument | undefined) {}

  entitlements(tenant: string, now: Date): Entitlements {
    return entitlementsAt(this.subscription(tenant), (name) => this.plan(name), now);
  }

  private plan(name: string): Plan | undefined {
    return this.cached(this.plans, this.find('plans', PLATFORM_WIDE, name), name, (d) => ({ plan: readPlan(d) }))?.plan;
  }

  private subscription(tenant: string): Subscription | undefined {
    return this.cached(this.subscriptions, this.find('subscriptions', tenant, SUBSCRIPTION), tenant, (d) => ({
      subscription: readSubscription(d),
    }))?.subscription;
  }

  private cached<T extends object>(
    cache: Map<string, { version: number } & T>,
    stored: StoredDocument | undefined,
    key: string,
    read: (document: Record<string, unknown>) => T,
  ): T | undefined {
    if (stored === undefined) {
      cache.delete(key);
      return undefined;
    }
    const hit = cache.get(key);
    if (hit?.version === stored.version) return hit;
    const entry = { version: stored.version, ...read(stored.document) };
    cache.set(key, entry);
    return entry;
  }
}
