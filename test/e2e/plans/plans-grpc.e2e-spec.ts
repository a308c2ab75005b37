import { randomBytes } from 'node:crypto';
import * as grpc from '@grpc/grpc-js';
import { quotaWindow } from '@platform/domain';
import {
  type CheckEntitlementResult,
  createEntitlementServiceClient,
  createFlagServiceClient,
  createQuotaServiceClient,
  type EntitlementServiceClient,
  type EvaluateFlagResult,
  type FlagServiceClient,
  type ListEntitlementsResult,
  type QuotaResult,
  type QuotaServiceClient,
  readRetryInfo,
} from '@platform/grpc';
import { EntitlementsClient, QuotaExhaustedError, QuotasClient } from '@platform/sdk';
import { unaryCall as call } from '../../support/grpc';
import { identityOf, signIn } from '../../support/internal-consent';
import { adminToken, clientCredentialsToken, discover, registerApp } from '../../support/oauth';
import {
  startControlPlaneReplica,
  startExtraSidecar,
  startPlatform,
  type TestPlatform,
} from '../../support/platform';
import { createScratchDatabase, postgresSuiteEnabled, type ScratchDatabase } from '../../support/postgres';
import { redisSuiteEnabled, TEST_REDIS_URL } from '../../support/redis';

const SCOPES = ['entitlements.read', 'quotas.read', 'quotas.consume', 'flags.read'];
const LONG_AGO = '2020-01-01T00:00:00Z';
/** Concurrent consumers, as issue 40 asks, and the limit they share. */
const CALLERS = 8;
const LIMIT = 40;
const PRO = {
  description: 'Pro',
  features: { sso: true, support: 'business', seats: 50 },
  quotas: {
    exports: { limit: LIMIT, period: 'month' },
    reports: { limit: 1, period: 'month', enforcement: 'soft' },
  },
};

/** What one platform of the suite holds: two sidecars, and the tokens that call them. */
interface Setup {
  platform: TestPlatform;
  second: { address: string; stop(): Promise<void> };
  admin: string;
  /** Clients of each sidecar. */
  entitlements: [EntitlementServiceClient, EntitlementServiceClient];
  quotas: [QuotaServiceClient, QuotaServiceClient];
  flags: [FlagServiceClient, FlagServiceClient];
  /** A service app bound to acme holding every scope. */
  acmeService: string;
  /** A service app bound to acme holding entitlements.read only. */
  acmeReader: string;
  /** Users of acme (role user) and of globex, through a web app declaring every scope. */
  acmeUser: string;
  globexUser: string;
}

/**
 * A platform and a second sidecar; on Postgres, the second sidecar follows a second control plane
 * (a replica on the same database), so the count is shared by two control planes as well.
 */
async function setUp(env: Record<string, string>, postgres?: ScratchDatabase): Promise<Setup> {
  const platform = await startPlatform({ env, ...(postgres && { databaseUrl: postgres.url }) });
  const replica = postgres ? await startControlPlaneReplica(platform) : undefined;
  const sidecar = await startExtraSidecar(platform, replica ? { CONTROL_PLANE_URL: replica.url } : {});
  const second = {
    address: sidecar.address,
    stop: async () => {
      await sidecar.stop();
      await replica?.stop();
      await postgres?.drop();
    },
  };
  const as = await discover(platform);
  const admin = await adminToken(as, platform);
  const serviceToken = async (clientId: string, declared: string[], tenant: string) => {
    const app = await registerApp(platform, admin, {
      client_id: clientId,
      declared_scopes: declared,
      tenant,
    });
    return (await clientCredentialsToken(as, { clientId, clientSecret: app.client_secret! })).access_token;
  };
  const portal = await registerApp(platform, admin, {
    client_id: 'plans-portal',
    app_type: 'web',
    declared_scopes: SCOPES,
    redirect_uris: ['https://portal.example.test/plans/callback'],
  });
  const user = async (subject: string, tenant: string) =>
    (await signIn(platform, portal, { identity: identityOf(subject, tenant, ['user']) })).tokens.access_token;
  const addresses = [platform.sidecarAddress, second.address] as const;
  return {
    platform,
    second,
    admin,
    entitlements: [
      createEntitlementServiceClient(addresses[0]),
      createEntitlementServiceClient(addresses[1]),
    ],
    quotas: [createQuotaServiceClient(addresses[0]), createQuotaServiceClient(addresses[1])],
    flags: [createFlagServiceClient(addresses[0]), createFlagServiceClient(addresses[1])],
    acmeService: await serviceToken('plans-acme-billing', SCOPES, 'acme'),
    acmeReader: await serviceToken('plans-acme-reader', ['entitlements.read'], 'acme'),
    acmeUser: await user('mia', 'acme'),
    globexUser: await user('gus', 'globex'),
  };
}

async function tearDown(setup: Setup | undefined): Promise<void> {
  if (!setup) return;
  for (const client of [...setup.entitlements, ...setup.quotas, ...setup.flags]) client.close();
  await setup.platform.stop();
  await setup.second.stop();
}

const admin = (setup: Setup, method: 'PUT' | 'GET', path: string, body?: unknown) =>
  fetch(`${setup.platform.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${setup.admin}`, 'content-type': 'application/json' },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });

async function put(setup: Setup, path: string, body: unknown): Promise<void> {
  const response = await admin(setup, 'PUT', path, body);
  expect({ path, status: response.status }).toEqual({ path, status: 200 });
}

const check = (
  client: EntitlementServiceClient,
  request: Parameters<EntitlementServiceClient['CheckEntitlement']>[0],
) =>
  call<CheckEntitlementResult>((metadata, options, done) =>
    client.CheckEntitlement(request, metadata, options, done),
  );
const list = (client: EntitlementServiceClient, token: string, tenant = '') =>
  call<ListEntitlementsResult>((metadata, options, done) =>
    client.ListEntitlements({ token, tenant }, metadata, options, done),
  );
const consume = (client: QuotaServiceClient, request: Parameters<QuotaServiceClient['ConsumeQuota']>[0]) =>
  call<QuotaResult>((metadata, options, done) => client.ConsumeQuota(request, metadata, options, done));
const usage = (client: QuotaServiceClient, token: string, meter: string, tenant = '') =>
  call<QuotaResult>((metadata, options, done) =>
    client.GetQuotaUsage({ token, meter, tenant }, metadata, options, done),
  );

/** Polls `probe` until `accept` holds (5 s at most); answers how long that took. */
async function until<T>(probe: () => Promise<T>, accept: (value: T) => boolean): Promise<number> {
  const started = Date.now();
  for (;;) {
    const value = await probe();
    if (accept(value)) return Date.now() - started;
    if (Date.now() - started > 5000) throw new Error(`not there after 5 s: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * The tests both ways of counting share: a tenant on a plan of its own (a fresh plan name and
 * tenant per platform), consumed to the limit by CALLERS concurrent callers over two sidecars.
 */
function quotaTests(setup: () => Setup) {
  it(`grants exactly the limit to ${CALLERS} concurrent callers over two sidecars, then refuses with a RetryInfo; each grant durable`, async () => {
    const s = setup();
    const { quotas, acmeService, acmeUser } = s;
    const window = quotaWindow(new Date(), 'month', 'UTC');
    /** Consumes one unit at a time until refused; answers how many it was granted. */
    const caller = async (index: number) => {
      let granted = 0;
      for (;;) {
        const { error } = await consume(quotas[index % 2], {
          token: index % 4 < 2 ? acmeService : acmeUser,
          meter: 'exports',
        });
        if (error === null) granted++;
        else if (error.code === grpc.status.RESOURCE_EXHAUSTED) return granted;
        else throw error;
      }
    };
    const grants = await Promise.all(Array.from({ length: CALLERS }, (_, i) => caller(i)));

    expect(grants.reduce((a, b) => a + b, 0)).toBe(LIMIT);
    for (const client of quotas) {
      expect((await usage(client, acmeService, 'exports')).response).toMatchObject({
        limited: true,
        granted: false,
        used: LIMIT,
        remaining: 0,
        reset_time: { seconds: window.end.getTime() / 1000 },
      });
    }

    const { error } = await consume(quotas[1], { token: acmeService, meter: 'exports', units: 1 });
    expect(error?.code).toBe(grpc.status.RESOURCE_EXHAUSTED);
    expect(error?.details).toMatch(
      new RegExp(`^quota exports of tenant acme exhausted: ${LIMIT} of ${LIMIT} used until `),
    );
    const retry = readRetryInfo(error?.metadata);
    expect(retry?.status.code).toBe(grpc.status.RESOURCE_EXHAUSTED);
    expect(
      Math.abs((retry?.retryAfterSeconds ?? 0) - (window.end.getTime() - Date.now()) / 1000),
    ).toBeLessThan(5);

    // The control plane's durable count (with Redis: the journal drained, within about a second).
    await until(
      async () =>
        (await (await admin(s, 'GET', '/api/v1/tenants/acme/quotas')).json()) as Array<{
          meter: string;
          used: number;
        }>,
      (rows) => Array.isArray(rows) && rows.find((row) => row.meter === 'exports')?.used === LIMIT,
    );
  });

  it('answers a retry with the same idempotency key at the other sidecar with its first count, counting once', async () => {
    const { quotas, acmeService } = setup();
    const before = (await usage(quotas[0], acmeService, 'reports')).response.used;
    const key = `report-${randomBytes(4).toString('hex')}`;
    const first = await consume(quotas[0], { token: acmeService, meter: 'reports', idempotency_key: key });
    const retry = await consume(quotas[1], { token: acmeService, meter: 'reports', idempotency_key: key });

    expect(first.error).toBeNull();
    expect(first.response).toMatchObject({
      granted: true,
      replayed: false,
      used: before + 1,
      enforcement: 'soft',
    });
    expect(retry.response).toMatchObject({ granted: true, replayed: true, used: before + 1 });
    // Soft: counted past its limit of 1, never refused.
    expect((await consume(quotas[1], { token: acmeService, meter: 'reports' })).response).toMatchObject({
      granted: true,
      used: before + 2,
      remaining: 0,
    });
    expect((await usage(quotas[0], acmeService, 'reports')).response.used).toBe(before + 2);
  });

  it("refuses another tenant's token, a token without the scope, and a bad meter name, counting nothing", async () => {
    const { quotas, globexUser, acmeReader, acmeService } = setup();
    const before = (await usage(quotas[0], acmeService, 'reports')).response.used;
    const cross = await consume(quotas[0], { token: globexUser, tenant: 'acme', meter: 'reports' });
    const unscoped = await consume(quotas[1], { token: acmeReader, meter: 'reports' });
    const unscopedRead = await usage(quotas[1], acmeReader, 'reports');
    const badMeter = await consume(quotas[0], { token: acmeService, meter: 'Reports!' });

    expect(cross.error?.code).toBe(grpc.status.PERMISSION_DENIED);
    expect(unscoped.error?.code).toBe(grpc.status.PERMISSION_DENIED);
    expect(unscopedRead.error?.code).toBe(grpc.status.PERMISSION_DENIED);
    expect(badMeter.error?.code).toBe(grpc.status.INVALID_ARGUMENT);
    expect((await usage(quotas[0], acmeService, 'reports')).response.used).toBe(before);
  });
}

/** Sets the plans and acme's subscription, and waits until both sidecars count on them. */
async function subscribeAcme(setup: Setup): Promise<void> {
  await put(setup, '/api/v1/plans/pro', PRO);
  await put(setup, '/api/v1/plans/free', { features: { seats: 3 } });
  await put(setup, '/api/v1/tenants/acme/subscription', { assignments: [{ plan: 'pro', from: LONG_AGO }] });
  for (const client of setup.quotas) {
    await until(
      () => usage(client, setup.acmeService, 'exports'),
      ({ response }) => response?.limited === true,
    );
  }
}

/**
 * EntitlementService and QuotaService over gRPC against the real processes (issue 40): a plan
 * and a subscription set over REST reach a second sidecar within a second; quotas counted by the
 * control plane (no Redis) and, in the next suite, in Redis, exact under concurrency either way.
 */
const countingDatabase = postgresSuiteEnabled('the quota service suite on two control planes')
  ? { name: 'two control planes on Postgres', scratch: createScratchDatabase }
  : { name: 'SQLite', scratch: undefined };

describe(`sidecar gRPC: EntitlementService and QuotaService, quotas counted by the control plane (${countingDatabase.name})`, () => {
  let setup: Setup;

  beforeAll(async () => {
    setup = await setUp({}, await countingDatabase.scratch?.());
    await subscribeAcme(setup);
  });
  afterAll(() => tearDown(setup));

  quotaTests(() => setup);

  it('answers a plan and a subscription set over REST at a second sidecar within a second', async () => {
    const other = setup.entitlements[1];
    const seats = () => check(other, { token: setup.acmeUser, feature: 'seats', amount: 51 });
    expect((await seats()).response).toMatchObject({
      entitled: false,
      value: { numberValue: 50 },
      plan: 'pro',
    });

    const changed = Date.now();
    await put(setup, '/api/v1/plans/pro', { ...PRO, features: { ...PRO.features, seats: 100 } });
    await until(seats, ({ response }) => response?.entitled === true);
    expect(Date.now() - changed).toBeLessThan(1000);

    const moved = Date.now();
    await put(setup, '/api/v1/tenants/globex/subscription', {
      zone: 'Europe/Paris',
      assignments: [{ plan: 'free', from: LONG_AGO }],
    });
    await until(
      () => list(other, setup.globexUser),
      ({ response }) => response?.plan === 'free',
    );
    expect(Date.now() - moved).toBeLessThan(1000);
    expect((await list(other, setup.globexUser)).response).toEqual({
      plan: 'free',
      zone: 'Europe/Paris',
      features: { seats: { numberValue: 3, kind: 'numberValue' } },
      quotas: {},
    });
    expect((await list(setup.entitlements[0], setup.acmeService)).response).toMatchObject({
      plan: 'pro',
      features: {
        sso: { boolValue: true },
        support: { stringValue: 'business' },
        seats: { numberValue: 100 },
      },
      quotas: { exports: { limit: LIMIT, period: 'month', enforcement: 'hard', thresholds: [80, 100] } },
    });
  });

  it('refuses entitlements to another tenant’s token and a token without entitlements.read', async () => {
    const { entitlements, globexUser, admin: adminBearer } = setup;
    expect(
      (await check(entitlements[0], { token: globexUser, tenant: 'acme', feature: 'sso' })).error?.code,
    ).toBe(grpc.status.PERMISSION_DENIED);
    const as = await discover(setup.platform);
    const app = await registerApp(setup.platform, adminBearer, {
      client_id: 'plans-acme-quota-only',
      declared_scopes: ['quotas.read'],
      tenant: 'acme',
    });
    const quotaOnly = (
      await clientCredentialsToken(as, { clientId: app.client_id, clientSecret: app.client_secret! })
    ).access_token;
    expect((await list(entitlements[1], quotaOnly)).error?.code).toBe(grpc.status.PERMISSION_DENIED);
    expect(
      (await check(entitlements[1], { token: setup.acmeUser, feature: 'Not A Feature' })).error?.code,
    ).toBe(grpc.status.INVALID_ARGUMENT);
  });

  it('targets a flag on the plan in force ({"var": "plan"})', async () => {
    await put(setup, '/api/v1/tenants/globex/flags', {
      flags: {
        'bulk-export': {
          state: 'ENABLED',
          variants: { on: true, off: false },
          defaultVariant: 'off',
          targeting: { if: [{ in: [{ var: 'plan' }, ['pro', 'enterprise']] }, 'on', 'off'] },
        },
      },
    });
    const evaluate = () =>
      call<EvaluateFlagResult>((metadata, options, done) =>
        setup.flags[1].EvaluateFlag(
          {
            token: setup.globexUser,
            flag_key: 'bulk-export',
            type: 'boolean',
            default_value: { bool_value: false },
            // The caller cannot claim a plan: the sidecar says which one is in force.
            context_json: JSON.stringify({ plan: 'enterprise' }),
          },
          metadata,
          options,
          done,
        ),
      );
    await until(evaluate, ({ response }) => response?.reason === 'TARGETING_MATCH');
    expect((await evaluate()).response.value?.bool_value).toBe(false);

    const upgraded = Date.now();
    await put(setup, '/api/v1/tenants/globex/subscription', {
      assignments: [{ plan: 'pro', from: LONG_AGO }],
    });
    await until(evaluate, ({ response }) => response?.value?.bool_value === true);
    expect(Date.now() - upgraded).toBeLessThan(1000);
  });

  it('serves the SDK’s EntitlementsClient and QuotasClient', async () => {
    // A tenant of its own: its count is nobody else's.
    await put(setup, '/api/v1/tenants/initech/subscription', {
      assignments: [{ plan: 'pro', from: LONG_AGO }],
    });
    const as = await discover(setup.platform);
    const app = await registerApp(setup.platform, setup.admin, {
      client_id: 'plans-initech-sdk',
      declared_scopes: SCOPES,
      tenant: 'initech',
    });
    const token = (
      await clientCredentialsToken(as, { clientId: app.client_id, clientSecret: app.client_secret! })
    ).access_token;
    const tokens = { getToken: async () => token };
    const entitlements = new EntitlementsClient({ sidecarAddress: setup.platform.sidecarAddress, tokens });
    const quotas = new QuotasClient({ sidecarAddress: setup.second.address, tokens });
    try {
      await until(
        () => entitlements.check('support'),
        (answer) => answer.plan === 'pro',
      );
      await until(
        () => quotas.usage('exports'),
        (answer) => answer.limited,
      );
      expect(await entitlements.check('support')).toEqual({ entitled: true, value: 'business', plan: 'pro' });
      expect((await entitlements.list()).quotas.reports).toEqual({
        limit: 1,
        period: 'month',
        enforcement: 'soft',
        thresholds: [80, 100],
      });
      expect(await quotas.consume('uploads', { units: 3 })).toEqual({ limited: false, granted: true });
      const first = await quotas.consume('exports', { units: LIMIT, idempotencyKey: 'sdk-once' });
      const again = await quotas.consume('exports', { units: LIMIT, idempotencyKey: 'sdk-once' });
      expect(first).toMatchObject({ limited: true, granted: true, replayed: false, used: LIMIT });
      expect(again).toMatchObject({ replayed: true, used: LIMIT });
      const refused = await quotas.consume('exports').catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(QuotaExhaustedError);
      expect((refused as QuotaExhaustedError).retryAfterSeconds).toBeGreaterThan(0);
    } finally {
      entitlements.close();
      quotas.close();
    }
  }, 30_000);
});

// Registers nothing without Redis outside CI (redisSuiteEnabled warns; under CI it throws).
if (redisSuiteEnabled('the quota service suite in Redis'))
  describe('sidecar gRPC: QuotaService, two sidecars counting in one Redis, exact under concurrency', () => {
    let setup: Setup;

    beforeAll(async () => {
      // A prefix of its own: no count of another run is this one's.
      setup = await setUp({
        QUOTA_REDIS_URL: TEST_REDIS_URL,
        QUOTA_REDIS_PREFIX: `e2e-${randomBytes(4).toString('hex')}`,
      });
      await subscribeAcme(setup);
    });
    afterAll(() => tearDown(setup));

    quotaTests(() => setup);
  });
