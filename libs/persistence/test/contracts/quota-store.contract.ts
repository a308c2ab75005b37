import { AuditTrail, ManualClock, QuotaLedger, readPlan, type UsageKey } from '@platform/domain';
import type { Contract } from '../support/contract';
import { at, T0, uniqueId } from '../support/factories';

const QUOTA = readPlan({ quotas: { calls: { limit: 25, period: 'hour' } } }).quotas.calls;

/** Quota usage and consumptions: the durable half of the quota service (docs/plans.md). */
export const quotaStoreContract: Contract = (context) => {
  const key = (tenant = uniqueId('t')): UsageKey => ({ tenant, meter: 'calls', periodStart: T0 });
  const inTx = <T>(work: (s: ReturnType<typeof context>['stores']) => Promise<T>) =>
    context().transactor.inTransaction(work);

  it('creates a window at 0 once, keeps what is saved, and lists a meter’s windows newest first', async () => {
    const k = key();
    const created = await inTx((s) => s.quotas.lockUsage(k, at(3_600_000), 25, T0));
    expect(created).toEqual({
      ...k,
      periodEnd: at(3_600_000),
      used: 0,
      limit: 25,
      notified: [],
      updatedAt: T0,
    });
    await inTx((s) => s.quotas.saveUsage({ ...created, used: 21, notified: [80], updatedAt: at(5) }));
    const again = await inTx((s) => s.quotas.lockUsage(k, at(3_600_000), 99, at(9)));
    expect(again).toMatchObject({ used: 21, limit: 25, notified: [80], updatedAt: at(5) });
    const later = { ...k, periodStart: at(3_600_000) };
    await inTx((s) => s.quotas.lockUsage(later, at(7_200_000), 25, T0));
    const history = await context().stores.quotas.listUsage(k.tenant, 'calls', 10);
    expect(history.map((u) => u.periodStart)).toEqual([at(3_600_000), T0]);
    expect(await context().stores.quotas.listUsage(k.tenant, 'calls', 1)).toHaveLength(1);
    expect(await context().stores.quotas.findUsage({ ...k, meter: 'other' })).toBeNull();
  });

  it('finds a consumption by window and key only, and refuses the same key twice in a window', async () => {
    const k = key();
    const consumption = {
      ...k,
      periodEnd: at(3_600_000),
      idempotencyKey: 'retry-1',
      units: 3,
      usedAfter: 3,
      recordedAt: T0,
    };
    await inTx((s) => s.quotas.addConsumption(consumption));
    expect(await context().stores.quotas.findConsumption(k, 'retry-1')).toEqual(consumption);
    expect(await context().stores.quotas.findConsumption({ ...k, periodStart: at(1) }, 'retry-1')).toBeNull();
    await expect(inTx((s) => s.quotas.addConsumption(consumption))).rejects.toThrow();
  });

  it('grants exactly the limit to concurrent consumers, each in its own transaction', async () => {
    const clock = new ManualClock(T0);
    const ledger = new QuotaLedger(context().transactor, new AuditTrail(clock), clock);
    const tenant = uniqueId('t');
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        ledger.consume({ tenant, meter: 'calls', units: 1, idempotencyKey: `k${i}` }, QUOTA, 'UTC'),
      ),
    );
    expect(answers.filter((a) => a.granted)).toHaveLength(25);
    expect((await ledger.usage(tenant, 'calls', QUOTA, 'UTC')).used).toBe(25);
    const records = await context().stores.audit.listAuditRecords({ limit: 10, tenant });
    expect(records.map((r) => r.attributes.threshold).sort()).toEqual(['100', '80']);
  });

  it('prunes the consumptions of windows ended before a time, whole windows at a time', async () => {
    const old = key();
    const current = { ...old, periodStart: at(3_600_000) };
    await inTx(async (s) => {
      const ended = { periodEnd: at(3_600_000) };
      await s.quotas.addConsumption({
        ...old,
        ...ended,
        idempotencyKey: 'a',
        units: 1,
        usedAfter: 1,
        recordedAt: T0,
      });
      await s.quotas.addConsumption({
        ...old,
        ...ended,
        idempotencyKey: 'b',
        units: 1,
        usedAfter: 2,
        recordedAt: T0,
      });
      await s.quotas.addConsumption({
        ...current,
        periodEnd: at(7_200_000),
        idempotencyKey: 'a',
        units: 1,
        usedAfter: 1,
        recordedAt: T0,
      });
    });
    expect(await inTx((s) => s.quotas.pruneConsumptions(at(3_600_001), 10))).toBe(2);
    expect(await context().stores.quotas.findConsumption(old, 'a')).toBeNull();
    expect(await context().stores.quotas.findConsumption(current, 'a')).not.toBeNull();
  });
};
