import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { adminToken, basic, discover, postForm, registerApp, type RegisteredApp } from '../../support/oauth';
import { startBackendReplica, startPlatform, type TestPlatform } from '../../support/platform';
import { redisSuiteEnabled, TEST_REDIS_URL } from '../../support/redis';

const FAILURES_ALLOWED = 3;

/**
 * The backend's own limits on its OAuth endpoints, shared by two backends through a real Redis;
 * the replica trusts loopback as its proxy (TRUST_PROXY), the platform's backend trusts none.
 */
(redisSuiteEnabled('the rate limit end-to-end suite') ? describe : describe.skip)(
  'rate limits on the OAuth endpoints',
  () => {
    let platform: TestPlatform;
    let replica: { baseUrl: string; stop(): Promise<void> };
    let redis: Redis;

    const token = (baseUrl: string, app: RegisteredApp, secret = app.client_secret!) =>
      postForm(
        `${baseUrl}/v1/oauth/token`,
        { grant_type: 'client_credentials' },
        { authorization: basic(app.client_id, secret) },
      );
    const anApp = async () =>
      registerApp(platform, await adminToken(await discover(platform), platform), {
        client_id: `limited-${randomBytes(4).toString('hex')}`,
      });

    beforeAll(async () => {
      redis = new Redis(TEST_REDIS_URL);
      // Counts of earlier runs against this Redis must not decide this one.
      const stale = await redis.keys('platform:oauth:*');
      if (stale.length > 0) await redis.del(...stale);
      platform = await startPlatform({
        env: {
          RATE_LIMIT_REDIS_URL: TEST_REDIS_URL,
          RATE_LIMIT_FAILED_AUTH_PER_CLIENT: String(FAILURES_ALLOWED),
          RATE_LIMIT_FAILED_AUTH_PER_ADDRESS: '1000',
        },
      });
      replica = await startBackendReplica(platform, { TRUST_PROXY: 'loopback' });
    });
    afterAll(async () => {
      await replica?.stop();
      await platform?.stop();
      redis?.disconnect();
    });

    it('refuses a client after its failed authentications, even with the right secret, on every backend', async () => {
      const app = await anApp();
      for (let i = 0; i < FAILURES_ALLOWED; i++) {
        // Alternate backends: the count is shared through Redis.
        const response = await token(i % 2 === 0 ? platform.baseUrl : replica.baseUrl, app, 'a-wrong-guess');
        expect(response.status).toBe(401);
      }
      for (const baseUrl of [platform.baseUrl, replica.baseUrl]) {
        const refused = await token(baseUrl, app);
        expect(refused.status).toBe(429);
        expect(refused.headers.get('cache-control')).toBe('no-store');
        expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(890);
        expect(refused.headers.get('ratelimit-policy')).toBe(
          `"failed-auth-client";q=${FAILURES_ALLOWED};w=900`,
        );
        expect(refused.headers.get('ratelimit')).toMatch(/^"failed-auth-client";r=0;t=\d+$/);
        expect(await refused.json()).toEqual({
          error: 'temporarily_unavailable',
          error_description: expect.stringMatching(
            /^too many requests \(failed-auth-client\): retry after \d+ s$/,
          ),
        });
      }
      // The same refusal at introspection and revocation: one credential, one count.
      const introspect = await postForm(
        `${platform.baseUrl}/v1/oauth/introspect`,
        { token: 'x' },
        { authorization: basic(app.client_id, app.client_secret!) },
      );
      expect(introspect.status).toBe(429);
    });

    it('counts each forwarded client address on its own behind a trusted proxy, and believes no one else', async () => {
      const forwarded = (baseUrl: string, app: RegisteredApp, address: string, secret = app.client_secret!) =>
        postForm(
          `${baseUrl}/v1/oauth/token`,
          { grant_type: 'client_credentials' },
          { authorization: basic(app.client_id, secret), 'x-forwarded-for': address },
        );
      // The test connects from loopback: to the replica, it is a proxy saying who the client is.
      const behindProxy = await anApp();
      for (let i = 0; i < FAILURES_ALLOWED; i++) {
        expect((await forwarded(replica.baseUrl, behindProxy, '203.0.113.1', 'wrong')).status).toBe(401);
      }
      expect((await forwarded(replica.baseUrl, behindProxy, '203.0.113.1')).status).toBe(429);
      expect((await forwarded(replica.baseUrl, behindProxy, '203.0.113.2')).status).toBe(200);
      // To the platform's backend it is a client: a forged header changes nothing, every guess counts.
      const direct = await anApp();
      for (let i = 0; i < FAILURES_ALLOWED; i++) {
        expect((await forwarded(platform.baseUrl, direct, `198.51.100.${i}`, 'wrong')).status).toBe(401);
      }
      expect((await forwarded(platform.baseUrl, direct, '198.51.100.200')).status).toBe(429);
    });

    it('keeps counting per client: another client from the same address is not locked out', async () => {
      const [victim, other] = [await anApp(), await anApp()];
      for (let i = 0; i < FAILURES_ALLOWED; i++) await token(platform.baseUrl, victim, 'wrong');
      expect((await token(platform.baseUrl, victim)).status).toBe(429);
      expect((await token(platform.baseUrl, other)).status).toBe(200);
    });

    it('forgets the failures of a client that then authenticates before reaching the limit', async () => {
      const app = await anApp();
      for (let round = 0; round < 3; round++) {
        for (let i = 0; i < FAILURES_ALLOWED - 1; i++)
          expect((await token(platform.baseUrl, app, 'wrong')).status).toBe(401);
        expect((await token(platform.baseUrl, app)).status).toBe(200);
      }
    });

    it('counts the login family’s token path against the same client', async () => {
      const app = await anApp();
      for (let i = 0; i < FAILURES_ALLOWED; i++) {
        const response = await postForm(
          `${platform.baseUrl}/api/v1/auth/token`,
          { grant_type: 'client_credentials' },
          { authorization: basic(app.client_id, 'wrong') },
        );
        expect(response.status).toBe(401);
      }
      expect((await token(platform.baseUrl, app)).status).toBe(429);
    });

    it('counts form-posted client credentials the same way', async () => {
      const app = await anApp();
      const post = (secret: string) =>
        postForm(`${replica.baseUrl}/v1/oauth/token`, {
          grant_type: 'client_credentials',
          client_id: app.client_id,
          client_secret: secret,
        });
      for (let i = 0; i < FAILURES_ALLOWED; i++) expect((await post('wrong')).status).toBe(401);
      expect((await post(app.client_secret!)).status).toBe(429);
    });
  },
);

describe('the per-client request limit', () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    platform = await startPlatform({ env: { RATE_LIMIT_CLIENT_PER_MINUTE: '5' } });
  });
  afterAll(async () => platform?.stop());

  it('admits the quota per minute, then answers 429 with when to come back', async () => {
    const app = await registerApp(platform, await adminToken(await discover(platform), platform), {
      client_id: 'chatty',
    });
    const statuses = [];
    for (let i = 0; i < 6; i++) {
      const response = await postForm(`${platform.baseUrl}/v1/oauth/token`, {
        grant_type: 'client_credentials',
        client_id: app.client_id,
        client_secret: app.client_secret!,
      });
      statuses.push(response.status);
      if (response.status === 429) {
        expect(response.headers.get('ratelimit-policy')).toBe('"client";q=5;w=60');
        expect(Number(response.headers.get('retry-after'))).toBeLessThanOrEqual(60);
      }
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });
});

describe('rate limits while Redis is down', () => {
  let platform: TestPlatform;
  beforeAll(async () => {
    // Nothing listens on port 1: every count falls back to the backend's memory.
    platform = await startPlatform({
      env: { RATE_LIMIT_REDIS_URL: 'redis://127.0.0.1:1', RATE_LIMIT_FAILED_AUTH_PER_CLIENT: '2' },
    });
  });
  afterAll(async () => platform?.stop());

  it('still issues tokens, still stops a guesser, and says so in the log', async () => {
    const app = await registerApp(platform, await adminToken(await discover(platform), platform), {
      client_id: 'offline',
    });
    const attempt = (secret: string) =>
      postForm(
        `${platform.baseUrl}/v1/oauth/token`,
        { grant_type: 'client_credentials' },
        { authorization: basic(app.client_id, secret) },
      );
    expect((await attempt(app.client_secret!)).status).toBe(200);
    expect((await attempt('wrong')).status).toBe(401);
    expect((await attempt('wrong')).status).toBe(401);
    expect((await attempt(app.client_secret!)).status).toBe(429);
    expect(readFileSync(join(platform.dataDir, 'platform.log'), 'utf8')).toMatch(
      /counting in (this process's )?memory/,
    );
  });
});
