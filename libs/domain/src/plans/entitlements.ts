import type { EntitlementValue, Plan, Quota } from './plan';
import type { PlanOverride, Subscription } from './subscription';

/** What a tenant is entitled to at one instant: its plan, with the overrides in force applied. */
export interface Entitlements {
  /** The plan in force; null when none is (no subscription, or between assignments). */
  plan: string | null;
  /** The time zone the tenant's days and months count in. */
  zone: string;
  features: Record<string, EntitlementValue>;
  quotas: Record<string, Quota>;
}

export const NO_ENTITLEMENTS: Entitlements = Object.freeze({ plan: null, zone: 'UTC', features: {}, quotas: {} });

const inForce = (from: Date | undefined, until: Date | undefined, now: Date) =>
  (from === undefined || from <= now) && (until === undefined || now < until);

/**
 * The one rule of what a tenant has: the assignment in force (the latest `from` among those whose
 * window holds `now`), its plan's features and quotas, then each override in force in the order
 * listed (a value replaces, `null` removes). A plan that no longer exists gives nothing.
 */
export function entitlementsAt(
  subscription: Subscription | undefined,
  planOf: (name: string) => Plan | undefined,
  now: Date,
): Entitlements {
  if (subscription === undefined) return NO_ENTITLEMENTS;
  const assignment = subscription.assignments
    .filter((a) => inForce(a.from, a.until, now))
    .reduce<Subscription['assignments'][number] | undefined>((latest, a) => (latest && latest.from >= a.from ? latest : a), undefined);
  const plan = assignment ? planOf(assignment.plan) : undefined;
  const features: Record<string, EntitlementValue> = { ...plan?.features };
  const quotas: Record<string, Quota> = { ...plan?.quotas };
  for (const override of subscription.overrides) {
    if (inForce(override.from, override.until, now)) applyOverride(override, features, quotas);
  }
  return { plan: plan ? assignment!.plan : null, zone: subscription.zone, features, quotas };
}

function applyOverride(
  override: PlanOverride,
  features: Record<string, EntitlementValue>,
  quotas: Record<string, Quota>,
): void {
  for (const [name, value] of Object.entries(override.features)) {
    if (value === null) delete features[name];
    else features[name] = value;
  }
  for (const [meter, quota] of Object.entries(override.quotas)) {
    if (quota === null) delete quotas[meter];
    else quotas[meter] = quota;
  }
}

/** Whether a feature is on: `true`, an enum value, or a limit covering `amount` (default 1). */
export interface EntitlementCheck {
  entitled: boolean;
  /** The feature's value; absent when the tenant's plan does not name it. */
  value?: EntitlementValue;
}

export function checkEntitlement(entitlements: Entitlements, feature: string, amount = 1): EntitlementCheck {
  if (!Object.hasOwn(entitlements.features, feature)) return { entitled: false };
  const value = entitlements.features[feature];
  const entitled = typeof value === 'number' ? value >= amount : value !== false;
  return { entitled, value };
}
