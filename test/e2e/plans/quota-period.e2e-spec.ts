import { randomBytes } from 'node:crypto';
import type { QuotaUsageDto } from '@platform/contract';
import { adminToken, discover, postForm, registerApp } from '../../support/oauth';
import { describeWithManualClock, ManualPlatformClock } from '../../support/manual-clock';
import { startPlatform, type TestPlatform } from '../../support/platform';
import { redisSuiteEnabled, TEST_REDIS_URL } from '../../support/redis';

const ZONE = 'Pacific/Auckland';
const localTime = new Intl.DateTimeFormat('en-CA', {
  timeZone: ZONE,
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  hourCycle: 'h23',
});
/** Year, month (1-12), day and hour of `instant` on the tenant's calendar. */
const local = (instant: Date) =>
  Object.fromEntries(localTime.formatToParts(instant).map(({ type, value }) => [type, Number(value)]));

/**
 * The instant a month starts in Pacific/Auckland (UTC+12, UTC+13 in its summer): computed here
 * with Intl, not with the platform's luxon. `month` may run past 12.
 */
function aucklandMonthStart(year: number, month: number): Date {
  for (const offsetHours of [13, 12]) {
    const instant = new Date(Date.UTC(year, month - 1, 1) - offsetHours * 3_600_000);
    const at = local(instant);
    if (at.day === 1 && at.hour === 0) return instant;
  }
  throw new Error(`no start of month ${month} of ${year} in ${ZONE}`);
}

/**
 * The window under test: the tenant's month after the one a day from now (so the platform's clock
 * only ever moves forward), which starts while UTC is still in the month before: a window that
 * ends there is the tenant's month, not UTC's.
 */
const { year, month } = local(new Date(Date.now() + 86_400_000));
const MONTH_START = aucklandMonthStart(year, month);
const NEXT_MONTH = aucklandMonthStart(year, month + 1);
const MONTH_AFTER = aucklandMonthStart(year, month + 2);
/** How long before the month ends the quota is used up. */
const BEFORE_THE_END_MS = 60_000;

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

    /** The processes whose clocks count: the control plane's windows, the backend's answers. */
    const watched = () => [`${platform.controlPlaneUrl}/health`, `${platform.baseUrl}/health`];
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
      const plan = `period-plan-${tenant}`;
      expect(
        (await api('PUT', `/plans/${plan}`, { quotas: { tokens_issued: { limit: 2, period: 'month' } } }))
          .status,
      ).toBe(200);
      expect(
        (
          await api('PUT', `/tenants/${tenant}/subscription`, {
            zone: ZONE,
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
      await clock.setTo(new Date(NEXT_MONTH.getTime() - BEFORE_THE_END_MS), watched());
      expect((await token()).status).toBe(200);
      expect((await token()).status).toBe(200);
      const refused = await token();
      expect(refused.status).toBe(429);
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(BEFORE_THE_END_MS / 1000);
      expect(((await refused.json()) as { error_description: string }).error_description).toBe(
        `the tokens_issued quota of tenant ${tenant} (2 per month) is used up until ${NEXT_MONTH.toISOString()}`,
      );

      await clock.setTo(new Date(NEXT_MONTH.getTime() + 5_000), watched());
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
          period_start: NEXT_MONTH.toISOString(),
          period_end: MONTH_AFTER.toISOString(),
        },
        {
          used: 2,
          remaining: 0,
          period_start: MONTH_START.toISOString(),
          period_end: NEXT_MONTH.toISOString(),
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
