import { randomBytes } from 'node:crypto';
import type { QuotaUsageDto } from '@platform/contract';
import { adminToken, discover, postForm, registerApp } from '../../support/oauth';
import { describeWithManualClock, ManualPlatformClock } from '../../support/manual-clock';
import { startPlatform, type TestPlatform } from '../../support/platform';
import { redisSuiteEnabled, TEST_REDIS_URL } from '../../support/redis';

/**
 * December starts in Pacific/Auckland (UTC+13 in summer) at 2026-11-30T11:00:00Z, while it is
 * still November in UTC: a window that ends there is the tenant's month, not UTC's.
 */
const AUCKLAND_DECEMBER = new Date('2026-11-30T11:00:00Z');

const engines: { engine: string; env: Record<string, string> }[] = [
  { engine: 'the database', env: {} },
  ...(redisSuiteEnabled('the quota period suite on Redis')
    ? [
        {
          engine: 'Redis',
          env: {
            QUOTA_REDIS_URL: TEST_REDIS_URL,
            QUOTA_REDIS_PREFIX: `e2e-${randomBytes(4).toString('hex')}`,
          },
        },
      ]
    : []),
];

/**
 * A quota's window ends on the tenant's calendar and the count starts again (docs/plans.md,
 * "Windows"): the real processes on a clock the test moves (libfaketime), to half a minute before
 * the tenant's month ends and then past it.
 */
describeWithManualClock('a quota period ends on the tenant’s calendar and its count starts again', () => {
  describe.each(engines)('counting in $engine', ({ env }) => {
    const clock = new ManualPlatformClock();
    let platform: TestPlatform;
    const tenant = `period-${randomBytes(3).toString('hex')}`;
    const app = { clientId: `period-app-${randomBytes(3).toString('hex')}`, clientSecret: '' };

    /** A fresh admin token: the platform's clock moves by days, past any token's lifetime. */
    const admin = async () => adminToken(await discover(platform), platform);
    const api = async (method: string, path: string, body?: unknown) =>
      fetch(`${platform.baseUrl}/api/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${await admin()}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const token = () =>
      postForm(`${platform.baseUrl}/v1/oauth/token`, {
        grant_type: 'client_credentials',
        client_id: app.clientId,
        client_secret: app.clientSecret,
      });

    beforeAll(async () => {
      platform = await startPlatform({ env: { ...env, ...clock.env } });
      await clock.setTo(new Date(AUCKLAND_DECEMBER.getTime() - 30_000));
      const plan = `period-plan-${tenant}`;
      expect(
        (await api('PUT', `/plans/${plan}`, { quotas: { tokens_issued: { limit: 2, period: 'month' } } }))
          .status,
      ).toBe(200);
      expect(
        (
          await api('PUT', `/tenants/${tenant}/subscription`, {
            zone: 'Pacific/Auckland',
            assignments: [{ plan, from: '2026-01-01T00:00:00Z' }],
          })
        ).status,
      ).toBe(200);
      const registered = await registerApp(platform, await admin(), {
        client_id: app.clientId,
        tenant,
        declared_scopes: ['jobs.read'],
      });
      app.clientSecret = registered.client_secret!;
    });
    afterAll(async () => {
      await platform?.stop();
      clock.remove();
    });

    it('refuses past the limit until the tenant’s month ends, then grants again and keeps the ended window', async () => {
      expect((await token()).status).toBe(200);
      expect((await token()).status).toBe(200);
      const refused = await token();
      expect(refused.status).toBe(429);
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(30);
      expect(((await refused.json()) as { error_description: string }).error_description).toBe(
        `the tokens_issued quota of tenant ${tenant} (2 per month) is used up until ${AUCKLAND_DECEMBER.toISOString()}`,
      );

      await clock.setTo(new Date(AUCKLAND_DECEMBER.getTime() + 5_000));
      expect((await token()).status).toBe(200);

      // Redis counts first and the database a moment later (docs/plans.md, "Counting"): both agree within seconds.
      const windows = async () => {
        const read = (await (
          await api('GET', `/tenants/${tenant}/quotas/tokens_issued/usage`)
        ).json()) as QuotaUsageDto[];
        return read.map(({ used, remaining, period_start, period_end }) => ({
          used,
          remaining,
          period_start,
          period_end,
        }));
      };
      const expected = [
        {
          used: 1,
          remaining: 1,
          period_start: AUCKLAND_DECEMBER.toISOString(),
          period_end: '2026-12-31T11:00:00.000Z',
        },
        {
          used: 2,
          remaining: 0,
          period_start: '2026-10-31T11:00:00.000Z',
          period_end: AUCKLAND_DECEMBER.toISOString(),
        },
      ];
      const deadline = Date.now() + 10_000;
      while (JSON.stringify(await windows()) !== JSON.stringify(expected) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(await windows()).toEqual(expected);
      const current = (await (await api('GET', `/tenants/${tenant}/quotas`)).json()) as QuotaUsageDto[];
      expect(current).toEqual([expect.objectContaining({ meter: 'tokens_issued', ...expected[0] })]);
    });
  });
});
