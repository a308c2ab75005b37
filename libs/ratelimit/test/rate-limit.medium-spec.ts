import { randomBytes } from 'node:crypto';
import { redisSuiteEnabled, TEST_REDIS_URL } from '../../../test/support/redis';
import { rateLimitHeaders, RateLimitStore } from '../src';

const policy = { name: 'per-client', quota: 3, windowSeconds: 60 };
const key = () => `client-${randomBytes(4).toString('hex')}`;

describe.each([
  { name: 'memory', redisUrl: undefined },
  ...(redisSuiteEnabled('the Redis rate limit suite') ? [{ name: 'Redis', redisUrl: TEST_REDIS_URL }] : []),
])('rate limits in $name', ({ redisUrl }) => {
  const stores: RateLimitStore[] = [];
  const open = async (keyPrefix = `test-${randomBytes(4).toString('hex')}`) => {
    const store = new RateLimitStore({ redisUrl, keyPrefix });
    stores.push(store);
    expect(await store.ready()).toBe(true);
    return store;
  };
  afterAll(async () => {
    // Every count went to the store under test, none to the fallback.
    expect(stores.map((s) => s.storeErrors)).toEqual(stores.map(() => 0));
    await Promise.all(stores.map((s) => s.close()));
  });

  it('admits the quota, then refuses until the window ends, saying when', async () => {
    const limit = (await open()).limit(policy);
    const client = key();
    const decisions = [];
    for (let i = 0; i < 4; i++) decisions.push(await limit.consume(client));
    expect(decisions.map((d) => [d.allowed, d.remaining])).toEqual([
      [true, 2],
      [true, 1],
      [true, 0],
      [false, 0],
    ]);
    expect(decisions[3].resetSeconds).toBeGreaterThan(55);
    expect(decisions[3].resetSeconds).toBeLessThanOrEqual(60);
    await expect(limit.consume(key())).resolves.toMatchObject({ allowed: true, remaining: 2 });
  });

  it('peeks without counting, blocks for the block time once used up, and forgets on reset', async () => {
    const limit = (await open()).limit({ name: 'failures', quota: 2, windowSeconds: 60, blockSeconds: 600 });
    const client = key();
    await expect(limit.peek(client)).resolves.toMatchObject({ allowed: true, remaining: 2 });
    await limit.consume(client);
    await expect(limit.peek(client)).resolves.toMatchObject({ allowed: true, remaining: 1 });
    await limit.consume(client);
    await limit.consume(client); // over: blocked
    const blocked = await limit.peek(client);
    expect(blocked.allowed).toBe(false);
    expect(blocked.resetSeconds).toBeGreaterThan(590);
    await limit.reset(client);
    await expect(limit.peek(client)).resolves.toMatchObject({ allowed: true });
  });

  it('writes the IETF RateLimit fields and Retry-After', async () => {
    const limit = (await open()).limit(policy);
    const client = key();
    expect(rateLimitHeaders(await limit.consume(client))).toEqual({
      'ratelimit-policy': '"per-client";q=3;w=60',
      ratelimit: expect.stringMatching(/^"per-client";r=2;t=(59|60)$/),
    });
    await limit.consume(client, 3);
    expect(rateLimitHeaders(await limit.consume(client))).toMatchObject({
      'retry-after': expect.stringMatching(/^(59|60)$/),
    });
  });

  if (redisUrl) {
    it('shares the counts between processes through Redis', async () => {
      // Two stores with one prefix are two processes of one platform.
      const prefix = `shared-${randomBytes(4).toString('hex')}`;
      const [a, b] = [await open(prefix), await open(prefix)];
      const client = key();
      await a.limit(policy).consume(client, 2);
      await expect(b.limit(policy).consume(client)).resolves.toMatchObject({ allowed: true, remaining: 0 });
      await expect(a.limit(policy).consume(client)).resolves.toMatchObject({ allowed: false });
    });
  }
});

describe('rate limits when Redis is down', () => {
  it('count in memory, still refuse past the quota, and report each failure', async () => {
    const failures: Error[] = [];
    // Nothing listens on port 1.
    const store = new RateLimitStore({
      redisUrl: 'redis://127.0.0.1:1',
      keyPrefix: 'down',
      onStoreError: (e) => failures.push(e),
    });
    try {
      const limit = store.limit(policy);
      const decisions = [];
      for (let i = 0; i < 4; i++) decisions.push((await limit.consume('client')).allowed);
      expect(decisions).toEqual([true, true, true, false]);
      expect(store.storeErrors).toBeGreaterThanOrEqual(4);
      expect(failures.length).toBe(store.storeErrors);
    } finally {
      await store.close();
    }
  });
});
