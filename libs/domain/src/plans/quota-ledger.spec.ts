import { AuditTrail } from '../audit/audit-trail';
import { ManualClock } from '../clock';
import { inMemoryStorage } from '../testing/in-memory-stores';
import { readPlan } from './plan';
import { QUOTA_THRESHOLD_ACTION, QuotaLedger } from './quota-ledger';
import { quotaWindow } from './quota-period';

const QUOTA = readPlan({ quotas: { calls: { limit: 10, period: 'hour' } } }).quotas.calls;
const SOFT = { ...QUOTA, enforcement: 'soft' as const };

function setUp() {
  const clock = new ManualClock(new Date('2026-11-28T10:15:00Z'));
  const { stores, transactor } = inMemoryStorage();
  const ledger = new QuotaLedger(transactor, new AuditTrail(clock), clock);
  const thresholds = async () =>
    (await stores.audit.listAuditRecords({ limit: 100 }))
      .filter((r) => r.action === QUOTA_THRESHOLD_ACTION)
      .map(
        (r) =>
          `${r.tenant}/${r.target} ${r.attributes.threshold}% ${r.attributes.used}/${r.attributes.limit}`,
      );
  return { clock, stores, ledger, thresholds };
}

describe('QuotaLedger', () => {
  it('grants up to the limit exactly, refuses past it without counting, and answers what is left', async () => {
    const { ledger } = setUp();
    const answers = await Promise.all(
      Array.from({ length: 14 }, () =>
        ledger.consume({ tenant: 'acme', meter: 'calls', units: 1 }, QUOTA, 'UTC'),
      ),
    );
    expect(answers.filter((a) => a.granted)).toHaveLength(10);
    const refused = answers.find((a) => !a.granted)!;
    expect(refused).toMatchObject({ used: 10, limit: 10, remaining: 0, replayed: false });
    expect(refused.window.end.toISOString()).toBe('2026-11-28T11:00:00.000Z');
    expect((await ledger.consume({ tenant: 'acme', meter: 'calls', units: 0 }, QUOTA, 'UTC')).used).toBe(10);
    // Another tenant, another meter: their own counts.
    expect((await ledger.consume({ tenant: 'beta', meter: 'calls', units: 3 }, QUOTA, 'UTC')).remaining).toBe(
      7,
    );
  });

  it('answers a retry with the same key as the first time and counts it once, even when the limit is reached since', async () => {
    const { ledger } = setUp();
    const first = await ledger.consume(
      { tenant: 'acme', meter: 'calls', units: 4, idempotencyKey: 'k1' },
      QUOTA,
      'UTC',
    );
    await ledger.consume({ tenant: 'acme', meter: 'calls', units: 6 }, QUOTA, 'UTC');
    const retry = await ledger.consume(
      { tenant: 'acme', meter: 'calls', units: 4, idempotencyKey: 'k1' },
      QUOTA,
      'UTC',
    );
    expect(retry).toEqual({ ...first, replayed: true });
    expect((await ledger.usage('acme', 'calls', QUOTA, 'UTC')).used).toBe(10);
  });

  it('starts a new window at the period boundary (manual clock), keeping the last one in the history', async () => {
    const { ledger, clock, stores } = setUp();
    await ledger.consume({ tenant: 'acme', meter: 'calls', units: 10, idempotencyKey: 'k' }, QUOTA, 'UTC');
    expect((await ledger.consume({ tenant: 'acme', meter: 'calls', units: 1 }, QUOTA, 'UTC')).granted).toBe(
      false,
    );
    clock.set(new Date('2026-11-28T11:00:00Z'));
    const next = await ledger.consume(
      { tenant: 'acme', meter: 'calls', units: 1, idempotencyKey: 'k' },
      QUOTA,
      'UTC',
    );
    expect(next).toMatchObject({ granted: true, used: 1, remaining: 9, replayed: false });
    const history = await stores.quotas.listUsage('acme', 'calls', 10);
    expect(history.map((u) => [u.periodStart.toISOString(), u.used])).toEqual([
      ['2026-11-28T11:00:00.000Z', 1],
      ['2026-11-28T10:00:00.000Z', 10],
    ]);
  });

  it('audits each threshold once a window, in the consumption’s transaction; soft quotas count past the limit', async () => {
    const { ledger, clock, thresholds } = setUp();
    for (let i = 0; i < 7; i++)
      await ledger.consume({ tenant: 'acme', meter: 'calls', units: 1 }, SOFT, 'UTC');
    expect(await thresholds()).toEqual([]);
    await ledger.consume({ tenant: 'acme', meter: 'calls', units: 1 }, SOFT, 'UTC');
    expect(await thresholds()).toEqual(['acme/calls 80% 8/10']);
    // One jump across 100: announced once; past it, nothing more.
    const over = await ledger.consume({ tenant: 'acme', meter: 'calls', units: 5 }, SOFT, 'UTC');
    expect(over).toMatchObject({ granted: true, used: 13, remaining: 0 });
    await ledger.consume({ tenant: 'acme', meter: 'calls', units: 5 }, SOFT, 'UTC');
    expect(await thresholds()).toEqual(['acme/calls 80% 8/10', 'acme/calls 100% 13/10']);
    clock.advance(3_600_000);
    await ledger.consume({ tenant: 'acme', meter: 'calls', units: 9 }, SOFT, 'UTC');
    expect(await thresholds()).toHaveLength(3);
  });

  it('answers a batch in one transaction, each as if alone and in order', async () => {
    const { ledger } = setUp();
    const item = (tenant: string, units: number, idempotencyKey?: string) => ({
      demand: { tenant, meter: 'calls', units, ...(idempotencyKey && { idempotencyKey }) },
      quota: QUOTA,
      zone: 'UTC',
    });
    const answers = await ledger.consumeAll([
      item('beta', 4, 'b1'),
      item('acme', 6, 'a1'),
      item('beta', 4, 'b1'),
      item('beta', 7),
      item('beta', 6),
      item('acme', 4),
    ]);
    expect(answers.map((a) => [a.granted, a.used, a.replayed])).toEqual([
      [true, 4, false],
      [true, 6, false],
      [true, 4, true],
      [false, 4, false],
      [true, 10, false],
      [true, 10, false],
    ]);
  });

  it('records what another engine granted once per key, with its thresholds', async () => {
    const { ledger, clock, thresholds } = setUp();
    const window = quotaWindow(clock.now(), 'hour', 'UTC');
    const entry = {
      tenant: 'acme',
      meter: 'calls',
      units: 9,
      idempotencyKey: '1-0',
      window,
      quota: QUOTA,
      at: clock.now(),
    };
    await ledger.recordAll([entry, entry]);
    await ledger.recordAll([entry]);
    expect((await ledger.usage('acme', 'calls', QUOTA, 'UTC')).used).toBe(9);
    expect(await thresholds()).toEqual(['acme/calls 80% 9/10']);
  });
});
