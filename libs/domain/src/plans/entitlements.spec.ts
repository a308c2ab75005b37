import { DomainError } from '../errors';
import { checkEntitlement, entitlementsAt } from './entitlements';
import { readPlan, type Plan } from './plan';
import { readSubscription } from './subscription';

const PLANS: Record<string, Plan> = {
  free: readPlan({ features: { sso: false, seats: 5 }, quotas: { tokens_issued: { limit: 1000, period: 'month' } } }),
  pro: readPlan({
    description: 'Pro',
    features: { sso: true, seats: 50, support: 'business' },
    quotas: { tokens_issued: { limit: 100000, period: 'month', enforcement: 'soft', thresholds: [100, 80] } },
  }),
};
const at = (iso: string) => new Date(iso);

describe('plans', () => {
  it('reads a plan with its defaults: hard enforcement, thresholds 80 and 100, sorted', () => {
    expect(PLANS.free.quotas.tokens_issued).toEqual({ limit: 1000, period: 'month', enforcement: 'hard', thresholds: [80, 100] });
    expect(PLANS.pro.quotas.tokens_issued.thresholds).toEqual([80, 100]);
  });

  it.each([
    [{ features: { sso: null } }, '/features/sso: true/false, a non-empty string or a whole number of at least 0'],
    [{ features: { seats: -1 } }, '/features/seats'],
    [{ features: { 'Bad Name': true } }, '/features/Bad Name: names are'],
    [{ quotas: { calls: { limit: 10, period: 'week' } } }, '/quotas/calls/period: one of hour, day, month'],
    [{ quotas: { calls: { limit: 1.5, period: 'day' } } }, '/quotas/calls/limit'],
    [{ quotas: { calls: { limit: 1, period: 'day', enforcement: 'strict' } } }, '/quotas/calls/enforcement'],
    [{ quotas: { calls: { limit: 1, period: 'day', thresholds: [0] } } }, '/quotas/calls/thresholds'],
    [{ quotas: { calls: { limit: 1, period: 'day', extra: 1 } } }, '/quotas/calls/extra: not a quota member'],
    [{ price: 10 }, '/price: not a plan member'],
    [[], '/: an object'],
  ])('refuses %j saying where', (document, message) => {
    expect(() => readPlan(document)).toThrow(DomainError);
    expect(() => readPlan(document)).toThrow(message);
  });
});

describe('subscriptions', () => {
  const subscription = readSubscription({
    zone: 'Europe/Paris',
    assignments: [
      { plan: 'free', from: '2026-01-01T00:00:00Z' },
      { plan: 'pro', from: '2026-06-01T00:00:00Z', until: '2026-09-01T00:00:00Z' },
    ],
    overrides: [
      { reason: 'trial of audit export', features: { audit_export: true }, until: '2026-03-01T00:00:00Z' },
      { reason: 'add-on seats', features: { seats: 80, sso: null }, quotas: { jobs_submitted: { limit: 10, period: 'day' } }, from: '2026-07-01T00:00:00Z' },
    ],
  });
  const entitlements = (iso: string) => entitlementsAt(subscription, (name) => PLANS[name], at(iso));

  it('gives nothing before the first assignment, then the plan in force with the overrides in force', () => {
    expect(entitlements('2025-12-31T23:59:59Z')).toMatchObject({ plan: null, features: { audit_export: true } });
    expect(entitlements('2026-02-01T00:00:00Z')).toEqual({
      plan: 'free',
      zone: 'Europe/Paris',
      features: { sso: false, seats: 5, audit_export: true },
      quotas: { tokens_issued: PLANS.free.quotas.tokens_issued },
    });
    // The trial ended; the later assignment wins while it lasts.
    expect(entitlements('2026-06-15T00:00:00Z')).toMatchObject({ plan: 'pro', features: { sso: true, seats: 50 } });
    // The add-on replaces seats, removes sso and adds a quota.
    const withAddOn = entitlements('2026-07-02T00:00:00Z');
    expect(withAddOn.features).toEqual({ seats: 80, support: 'business' });
    expect(Object.keys(withAddOn.quotas).sort()).toEqual(['jobs_submitted', 'tokens_issued']);
    // The pro window ended at `until` (exclusive): back to free.
    expect(entitlements('2026-09-01T00:00:00Z').plan).toBe('free');
  });

  it('gives nothing for a plan that no longer exists, and nothing without a subscription', () => {
    expect(entitlementsAt(subscription, () => undefined, at('2026-02-01T00:00:00Z')).plan).toBeNull();
    expect(entitlementsAt(undefined, (name) => PLANS[name], at('2026-02-01T00:00:00Z'))).toEqual({
      plan: null,
      zone: 'UTC',
      features: {},
      quotas: {},
    });
  });

  it.each([
    [{ zone: 'Mars/Olympus' }, '/zone'],
    [{ assignments: [{ plan: 'pro' }] }, '/assignments/0/from: required'],
    [{ assignments: [{ plan: 'pro', from: 'yesterday' }] }, '/assignments/0/from: an RFC 3339 date-time'],
    [{ assignments: [{ plan: 'pro', from: '2026-02-01T00:00:00Z', until: '2026-01-01T00:00:00Z' }] }, '/assignments/0/until: after from'],
    [{ assignments: [{ plan: 'a plan', from: '2026-02-01T00:00:00Z' }] }, '/assignments/0/plan'],
    [{ overrides: [{ features: { seats: 'x'.repeat(300) } }] }, '/overrides/0/features/seats'],
    [{ overrides: {} }, '/overrides: a list'],
  ])('refuses %j saying where', (document, message) => {
    expect(() => readSubscription(document)).toThrow(message);
  });
});

describe('checkEntitlement', () => {
  const entitlements = { plan: 'pro', zone: 'UTC', features: { sso: true, beta: false, seats: 50, support: 'business' }, quotas: {} };

  it('answers on/off, enum values and limits covering an amount', () => {
    expect(checkEntitlement(entitlements, 'sso')).toEqual({ entitled: true, value: true });
    expect(checkEntitlement(entitlements, 'beta')).toEqual({ entitled: false, value: false });
    expect(checkEntitlement(entitlements, 'support')).toEqual({ entitled: true, value: 'business' });
    expect(checkEntitlement(entitlements, 'seats', 50)).toEqual({ entitled: true, value: 50 });
    expect(checkEntitlement(entitlements, 'seats', 51)).toEqual({ entitled: false, value: 50 });
    expect(checkEntitlement(entitlements, 'unknown')).toEqual({ entitled: false });
    expect(checkEntitlement(entitlements, 'toString')).toEqual({ entitled: false });
  });
});
