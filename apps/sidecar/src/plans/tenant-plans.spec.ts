import { Logger } from '@nestjs/common';
import { ManualClock } from '@platform/domain';
import { DefinitionSync } from '../definitions/definition-sync';
import { SidecarError } from '../errors';
import { Readiness } from '../health/readiness';
import { FakeControlPlane } from '../testing/fake-control-plane';
import { TenantPlans } from './tenant-plans';

describe(TenantPlans.name, () => {
  let controlPlane: FakeControlPlane;
  let sync: DefinitionSync;
  let clock: ManualClock;
  let plans: TenantPlans;

  beforeAll(() => Logger.overrideLogger(false));
  beforeEach(() => {
    controlPlane = new FakeControlPlane();
    const readiness = new Readiness();
    sync = new DefinitionSync(controlPlane, readiness);
    clock = new ManualClock(new Date('2026-11-30T23:00:00Z'));
    plans = new TenantPlans(sync, clock);
  });
  afterEach(() => sync.onApplicationShutdown());

  const publish = (kind: string, tenant: string, name: string, version: number, document: object | null) =>
    controlPlane.publishDefinition({
      kind,
      tenant,
      name,
      version,
      document: document as Record<string, unknown>,
    });

  it('refuses to answer before the definitions are loaded: UNAVAILABLE, not "no plan"', () => {
    expect(() => plans.entitlements('acme')).toThrow(
      expect.objectContaining({ constructor: SidecarError, code: 'not_ready' }) as Error,
    );
  });

  it('applies the assignment and the override in force at the clock’s instant', async () => {
    publish('plans', '*', 'pro', 1, { features: { sso: true, seats: 50 }, quotas: {} });
    publish('plans', '*', 'free', 1, { features: { seats: 3 } });
    publish('subscriptions', 'acme', 'subscription', 1, {
      assignments: [
        { plan: 'free', from: '2026-01-01T00:00:00Z', until: '2026-12-01T00:00:00Z' },
        { plan: 'pro', from: '2026-12-01T00:00:00Z' },
      ],
      overrides: [{ reason: 'trial', features: { sso: true }, until: '2026-12-01T00:00:00Z' }],
    });
    await sync.syncNow();

    expect(plans.entitlements('acme')).toEqual({
      plan: 'free',
      zone: 'UTC',
      features: { seats: 3, sso: true },
      quotas: {},
    });
    clock.advance(3_600_000);
    expect(plans.entitlements('acme')).toMatchObject({ plan: 'pro', features: { seats: 50, sso: true } });
    expect(plans.entitlements('globex')).toEqual({ plan: null, zone: 'UTC', features: {}, quotas: {} });
  });

  it('follows a new version of a plan and a deleted subscription', async () => {
    publish('plans', '*', 'pro', 1, { features: { seats: 50 } });
    publish('subscriptions', 'acme', 'subscription', 1, {
      assignments: [{ plan: 'pro', from: '2026-01-01T00:00:00Z' }],
    });
    await sync.syncNow();
    expect(plans.entitlements('acme').features).toEqual({ seats: 50 });

    publish('plans', '*', 'pro', 2, { features: { seats: 80 } });
    await sync.syncNow();
    expect(plans.entitlements('acme').features).toEqual({ seats: 80 });

    publish('subscriptions', 'acme', 'subscription', 2, null);
    await sync.syncNow();
    expect(plans.entitlements('acme').plan).toBeNull();
  });
});
