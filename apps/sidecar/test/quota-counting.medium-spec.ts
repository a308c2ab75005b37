import { randomBytes } from 'node:crypto';
import * as grpc from '@grpc/grpc-js';
import { Logger, type INestApplicationContext } from '@nestjs/common';
import { quotaWindow } from '@platform/domain';
import {
  type CheckEntitlementResult,
  createEntitlementServiceClient,
  createQuotaServiceClient,
  type QuotaResult,
  type QuotaServiceClient,
  readRetryInfo,
} from '@platform/grpc';
import { RedisQuotaCounter } from '@platform/ratelimit';
import { redisSuiteEnabled, TEST_REDIS_URL } from '../../../test/support/redis';
import { SidecarGrpcServer } from '../src/grpc/sidecar-grpc.server';
import { Readiness } from '../src/health/readiness';
import { QuotaCounting } from '../src/plans/quota-counting';
import { startSidecar } from '../src/start-sidecar';
import { FakeControlPlane } from '../src/testing/fake-control-plane';
import { call } from '../src/testing/grpc-call';
import { testConfig } from '../src/testing/test-config';
import { createTestKey, signAccessToken, type TestKey } from '../src/testing/test-keys';

const LONG_AGO = '2020-01-01T00:00:00Z';
const PLAN = { features: { sso: true }, quotas: { exports: { limit: 5, period: 'month' } } };

/**
 * QuotaService counted in Redis (QUOTA_REDIS_URL): two sidecars on one control plane share one
 * count, exact under concurrency, seeded from the control plane's durable count, journaled for
 * it; a Redis that does not answer is UNAVAILABLE, never a count of the sidecar's own.
 */
(redisSuiteEnabled('the sidecar quota counting suite') ? describe : describe.skip)(
  'sidecar QuotaService counted in Redis',
  () => {
    const prefix = `quota-spec-${randomBytes(4).toString('hex')}`;
    let key: TestKey;
    let controlPlane: FakeControlPlane;
    const apps: INestApplicationContext[] = [];
    const clients: grpc.Client[] = [];
    let first: QuotaServiceClient;
    let second: QuotaServiceClient;
    let journal: RedisQuotaCounter;
    let version = 1;

    const boot = async (redisUrl: string) => {
      const app = await startSidecar(
        { config: testConfig({ quotaRedisUrl: redisUrl, quotaRedisPrefix: prefix }), controlPlane },
        { logger: false, abortOnError: false },
      );
      apps.push(app);
      await app.get(Readiness).whenReady();
      return { app, address: `127.0.0.1:${app.get(SidecarGrpcServer).port}` };
    };
    const quotaClient = (address: string) => {
      const client = createQuotaServiceClient(address);
      clients.push(client);
      return client;
    };
    const subscribe = async (tenant: string) => {
      controlPlane.publishDefinition({
        kind: 'subscriptions',
        tenant,
        name: 'subscription',
        version: version++,
        document: { assignments: [{ plan: 'pro', from: LONG_AGO }] },
      });
      // Both sidecars follow the feed: wait until each answers with the plan.
      const token = await tokenOf(tenant);
      for (const client of [first, second]) {
        for (let tries = 0; ; tries++) {
          const { response } = await usage(client, token);
          if (response?.limited) break;
          if (tries > 200) throw new Error(`${tenant} not applied`);
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
      }
      return token;
    };
    const tokenOf = (tenant: string) =>
      signAccessToken(key, {
        claims: {
          sub: `${tenant}-app`,
          client_id: `${tenant}-app`,
          scope: 'quotas.consume quotas.read',
          tenant,
        },
      });
    const consume = (
      client: QuotaServiceClient,
      token: string,
      meter: string,
      options: { units?: number; key?: string } = {},
    ) =>
      call<QuotaResult>((done) =>
        client.ConsumeQuota(
          { token, meter, units: options.units ?? 0, idempotency_key: options.key ?? '' },
          done,
        ),
      );
    const usage = (client: QuotaServiceClient, token: string) =>
      call<QuotaResult>((done) => client.GetQuotaUsage({ token, meter: 'exports' }, done));

    beforeAll(async () => {
      Logger.overrideLogger(false);
      key = await createTestKey('RS256');
      controlPlane = new FakeControlPlane();
      controlPlane.publish(key.publicJwk);
      controlPlane.publishDefinition({
        kind: 'plans',
        tenant: '*',
        name: 'pro',
        version: version++,
        document: PLAN,
      });
      const [a, b] = [await boot(TEST_REDIS_URL), await boot(TEST_REDIS_URL)];
      expect(a.app.get(QuotaCounting).engine).toBe('redis');
      first = quotaClient(a.address);
      second = quotaClient(b.address);
      journal = new RedisQuotaCounter(TEST_REDIS_URL, prefix);
    });

    afterAll(async () => {
      for (const client of clients) client.close();
      for (const app of apps) await app.close();
      await journal?.close();
    });

    it('grants exactly the limit to 8 concurrent callers over two sidecars, and journals each grant', async () => {
      const token = await subscribe('acme');
      const calls = controlPlane.quotaCalls.length;
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) => consume(i % 2 ? first : second, token, 'exports')),
      );

      expect(answers.filter((a) => a.error === null)).toHaveLength(5);
      const refused = answers.filter((a) => a.error !== null);
      expect(refused.map((a) => a.error?.code)).toEqual([
        grpc.status.RESOURCE_EXHAUSTED,
        grpc.status.RESOURCE_EXHAUSTED,
        grpc.status.RESOURCE_EXHAUSTED,
      ]);
      const window = quotaWindow(new Date(), 'month', 'UTC');
      const wait = readRetryInfo(refused[0].error?.metadata)?.retryAfterSeconds ?? 0;
      expect(Math.abs(wait - (window.end.getTime() - Date.now()) / 1000)).toBeLessThan(5);
      expect(answers.flatMap((a) => (a.error ? [] : [a.response.used])).sort()).toEqual([1, 2, 3, 4, 5]);
      // Counted in Redis: the control plane is not asked to count (only to seed, which it already was).
      expect(controlPlane.quotaCalls.slice(calls).filter((c) => c.units > 0)).toEqual([]);
      const granted = (await journal.readJournal('spec', 100, 10)).filter((e) => e.tenant === 'acme');
      expect(granted.map((e) => [e.meter, e.units, e.limit, e.windowStart.getTime()])).toEqual(
        Array.from({ length: 5 }, () => ['exports', 1, 5, window.start.getTime()]),
      );
    });

    it('answers a retry at the other sidecar with the first count, counting once', async () => {
      const token = await subscribe('globex');
      const once = await consume(first, token, 'exports', { units: 2, key: 'order-7' });
      const again = await consume(second, token, 'exports', { units: 2, key: 'order-7' });

      expect(once.response).toMatchObject({ granted: true, replayed: false, used: 2, remaining: 3 });
      expect(again.response).toMatchObject({ granted: true, replayed: true, used: 2 });
      expect((await usage(second, token)).response).toMatchObject({ used: 2, granted: true });
    });

    it("starts a window Redis does not hold from the control plane's durable count", async () => {
      const tenant = `seeded-${randomBytes(3).toString('hex')}`;
      const window = quotaWindow(new Date(), 'month', 'UTC');
      controlPlane.quotaCounts.set(`${tenant} exports ${window.start.getTime()}`, 4);
      const token = await subscribe(tenant);

      expect((await consume(first, token, 'exports')).response).toMatchObject({ used: 5, remaining: 0 });
      expect((await consume(second, token, 'exports')).error).toMatchObject({
        code: grpc.status.RESOURCE_EXHAUSTED,
      });
      expect(
        controlPlane.quotaCalls.filter((c) => c.tenant === tenant && c.units === 0).length,
      ).toBeGreaterThan(0);
    });

    it('answers UNAVAILABLE, never INTERNAL, when its Redis does not answer, and still serves entitlements', async () => {
      const { address } = await boot('redis://127.0.0.1:1');
      const quotas = quotaClient(address);
      const entitlements = createEntitlementServiceClient(address);
      clients.push(entitlements);
      const token = await tokenOf('acme');

      const consumed = await consume(quotas, token, 'exports');
      expect(consumed.error).toMatchObject({ code: grpc.status.UNAVAILABLE });
      expect(consumed.error?.details).toMatch(/^quota Redis unavailable/);
      expect((await usage(quotas, token)).error).toMatchObject({ code: grpc.status.UNAVAILABLE });
      const reader = await signAccessToken(key, {
        claims: { sub: 'acme-reader', client_id: 'acme-reader', scope: 'entitlements.read', tenant: 'acme' },
      });
      const entitled = await call<CheckEntitlementResult>((done) =>
        entitlements.CheckEntitlement({ token: reader, feature: 'sso' }, done),
      );
      expect(entitled.response).toMatchObject({ entitled: true, plan: 'pro' });
    });
  },
);
