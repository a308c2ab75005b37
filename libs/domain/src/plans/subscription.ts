import { validationFailed } from '../errors';
import { objectAt, readFeatures, readQuotas, type EntitlementValue, type Quota } from './plan';

/** A plan assigned to a tenant from `from` until `until` (absent: open-ended). */
export interface PlanAssignment {
  plan: string;
  from: Date;
  until?: Date;
}

/**
 * A per-tenant change on top of the plan (a trial that ends, an add-on): its features replace the
 * plan's, its quotas replace the plan's quota of the same meter; `null` removes one.
 */
export interface PlanOverride {
  reason?: string;
  from?: Date;
  until?: Date;
  features: Record<string, EntitlementValue | null>;
  quotas: Record<string, Quota | null>;
}

/** A tenant's plans over time and its overrides: one document per tenant (docs/plans.md). */
export interface Subscription {
  /** IANA time zone whose days and months the quotas count in; UTC unless set. */
  zone: string;
  assignments: PlanAssignment[];
  overrides: PlanOverride[];
}

const PLAN_NAME = /^[A-Za-z0-9._-]{1,64}$/;
const MAX_ITEMS = 50;

export function readSubscription(document: unknown): Subscription {
  const subscription = objectAt(document, '/');
  for (const key of Object.keys(subscription)) {
    if (!['zone', 'assignments', 'overrides'].includes(key)) {
      throw validationFailed(`/${key}: not a subscription member`);
    }
  }
  const { zone = 'UTC', assignments = [], overrides = [] } = subscription;
  if (typeof zone !== 'string' || !isTimeZone(zone)) throw validationFailed('/zone: an IANA time zone such as Europe/Paris');
  return {
    zone,
    assignments: listAt(assignments, '/assignments').map((entry, i) => readAssignment(entry, `/assignments/${i}`)),
    overrides: listAt(overrides, '/overrides').map((entry, i) => readOverride(entry, `/overrides/${i}`)),
  };
}

/** As stored and answered: dates as ISO strings. */
export function subscriptionDocument(subscription: Subscription): Record<string, unknown> {
  const iso = (d: Date | undefined) => d?.toISOString();
  return {
    zone: subscription.zone,
    assignments: subscription.assignments.map((a) => ({ plan: a.plan, from: iso(a.from), until: iso(a.until) })),
    overrides: subscription.overrides.map((o) => ({ ...o, from: iso(o.from), until: iso(o.until) })),
  };
}

function readAssignment(value: unknown, at: string): PlanAssignment {
  const entry = objectAt(value, at);
  for (const key of Object.keys(entry)) {
    if (!['plan', 'from', 'until'].includes(key)) throw validationFailed(`${at}/${key}: not an assignment member`);
  }
  if (typeof entry.plan !== 'string' || !PLAN_NAME.test(entry.plan)) {
    throw validationFailed(`${at}/plan: a plan name (1 to 64 of A-Z a-z 0-9 . _ -)`);
  }
  const from = dateAt(entry.from, `${at}/from`);
  if (from === undefined) throw validationFailed(`${at}/from: required`);
  const until = dateAt(entry.until, `${at}/until`);
  if (until !== undefined && until <= from) throw validationFailed(`${at}/until: after from`);
  return { plan: entry.plan, from, ...(until && { until }) };
}

function readOverride(value: unknown, at: string): PlanOverride {
  const entry = objectAt(value, at);
  for (const key of Object.keys(entry)) {
    if (!['reason', 'from', 'until', 'features', 'quotas'].includes(key)) {
      throw validationFailed(`${at}/${key}: not an override member`);
    }
  }
  if (entry.reason !== undefined && (typeof entry.reason !== 'string' || entry.reason.length > 256)) {
    throw validationFailed(`${at}/reason: a string of at most 256 characters`);
  }
  const from = dateAt(entry.from, `${at}/from`);
  const until = dateAt(entry.until, `${at}/until`);
  if (from && until && until <= from) throw validationFailed(`${at}/until: after from`);
  const { removed: removedFeatures, kept: features } = splitRemovals(entry.features ?? {}, `${at}/features`);
  const { removed: removedQuotas, kept: quotas } = splitRemovals(entry.quotas ?? {}, `${at}/quotas`);
  return {
    ...(entry.reason !== undefined && { reason: entry.reason as string }),
    ...(from && { from }),
    ...(until && { until }),
    features: { ...readFeatures(features, `${at}/features`), ...removedFeatures },
    quotas: { ...readQuotas(quotas, `${at}/quotas`), ...removedQuotas },
  };
}

/** `null` entries (removals) apart from the values the plan rules read. */
function splitRemovals(value: unknown, at: string) {
  const removed: Record<string, null> = {};
  const kept: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(objectAt(value, at))) {
    if (entry === null) removed[key] = null;
    else kept[key] = entry;
  }
  readFeatures(Object.fromEntries(Object.keys(removed).map((k) => [k, true])), at); // the names' rule
  return { removed, kept };
}

function listAt(value: unknown, at: string): unknown[] {
  if (!Array.isArray(value)) throw validationFailed(`${at}: a list`);
  if (value.length > MAX_ITEMS) throw validationFailed(`${at}: at most ${MAX_ITEMS} entries`);
  return value;
}

function dateAt(value: unknown, at: string): Date | undefined {
  if (value === undefined || value === null) return undefined;
  const date = typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(value) ? new Date(value) : undefined;
  if (date === undefined || Number.isNaN(date.getTime())) {
    throw validationFailed(`${at}: an RFC 3339 date-time such as 2026-12-01T00:00:00Z`);
  }
  return date;
}

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return zone.length <= 64;
  } catch {
    return false;
  }
}
