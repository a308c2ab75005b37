import { randomBytes } from 'node:crypto';
import { redisSuiteEnabled, TEST_REDIS_URL } from '../../../test/support/redis';
import { RedisQuotaCounter, type QuotaCount } from '../src';

const START = new Date('2026-11-28T10:00:00Z');
const END = new Date(Date.now() + 3_600_000);

// Registers nothing when Redis is absent outside CI (redisSuiteEnabled warns; under CI it throws).
if (redisSuiteEnabled('the Redis quota counter suite')) describe('quota counts in Redis', () => {
  const counters: RedisQuotaCounter[] = [];
  const open = async (prefix = `test-${randomBytes(4).toString('hex')}`) => {
    const counter = new RedisQuotaCounter(TEST_REDIS_URL, prefix);
    counters.push(counter);
    expect(await counter.ready()).toBe(true);
    return { counter, prefix };
  };
  afterAll(() => Promise.all(counters.map((c) => c.close())));
  const count = (overrides: Partial<QuotaCount> = {}): QuotaCount => ({
    tenant: 'acme',
    meter: 'calls',
    units: 1,
    limit: 20,
    hard: true,
    thresholds: [80, 100],
    windowStart: START,
    windowEnd: END,
    ...overrides,
  });
  const zero = async () => 0;

  it('grants exactly the limit to 60 concurrent consumers on two connections, and journals each grant', async () => {
    const { counter, prefix } = await open();
    const other = (await open(prefix)).counter;
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) => (i % 2 ? counter : other).consume(count(), zero)),
    );
    expect(answers.filter((a) => a.granted)).toHaveLength(20);
    expect(answers.filter((a) => !a.granted).every((a) => a.used === 20)).toBe(true);
    const journal = await counter.readJournal('cp-1', 100, 10);
    expect(journal).toHaveLength(20);
    expect(journal[0]).toMatchObject({ tenant: 'acme', meter: 'calls', units: 1, limit: 20, thresholds: [80, 100], windowStart: START });
    expect(new Set(journal.map((e) => e.idempotencyKey)).size).toBe(20);
  });

  it('answers a retry with its first count and counts it once; a soft quota counts past the limit', async () => {
    const { counter } = await open();
    const first = await counter.consume(count({ units: 5, idempotencyKey: 'k1' }), zero);
    await counter.consume(count({ units: 15 }), zero);
    expect(await counter.consume(count({ units: 5, idempotencyKey: 'k1' }), zero)).toEqual({ ...first, replayed: true });
    expect(first).toEqual({ granted: true, used: 5, replayed: false });
    expect(await counter.consume(count({ units: 3, hard: false }), zero)).toEqual({ granted: true, used: 23, replayed: false });
    const journal = await counter.readJournal('cp-1', 100, 10);
    expect(journal.map((e) => [e.units, e.idempotencyKey.startsWith('journal:') ? 'id' : e.idempotencyKey])).toEqual([
      [5, 'k1'],
      [15, 'id'],
      [3, 'id'],
    ]);
  });

  it('seeds a window it does not hold from the durable count, asking once', async () => {
    const { counter } = await open();
    const durable = jest.fn(async () => 18);
    expect(await counter.consume(count({ units: 2 }), durable)).toMatchObject({ granted: true, used: 20 });
    expect(await counter.consume(count({ units: 1 }), durable)).toMatchObject({ granted: false, used: 20 });
    expect(durable).toHaveBeenCalledTimes(1);
  });

  it('keeps unacknowledged entries for their reader, hands a dead reader’s over after 5 s, and forgets acknowledged ones', async () => {
    const { counter } = await open();
    await counter.consume(count({ units: 4 }), zero);
    const read = await counter.readJournal('cp-dead', 10, 10);
    expect(read).toHaveLength(1);
    // Read again by the same reader (a restart with its name): still there.
    expect(await counter.readJournal('cp-dead', 10, 10)).toEqual(read);
    // Another reader gets nothing new until the entry has been idle 5 s.
    expect(await counter.readJournal('cp-live', 10, 10)).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 5_100));
    expect(await counter.readJournal('cp-live', 10, 10)).toEqual(read);
    await counter.acknowledge(read.map((e) => e.id));
    expect(await counter.readJournal('cp-live', 10, 10)).toEqual([]);
    expect(await counter.readJournal('cp-dead', 10, 10)).toEqual([]);
  }, 15_000);
});
