import * as grpc from '@grpc/grpc-js';
import { Logger, type INestApplicationContext } from '@nestjs/common';
import { service as healthService } from 'grpc-health-check';
import { quotaWindow } from '@platform/domain';
import {
  type CheckEntitlementResult,
  createEntitlementServiceClient,
  createFlagServiceClient,
  createQuotaServiceClient,
  DECIDED_BY_METADATA,
  type EntitlementServiceClient,
  type EvaluateFlagResult,
  type FlagServiceClient,
  type ListEntitlementsResult,
  type QuotaResult,
  type QuotaServiceClient,
  readRetryInfo,
} from '@platform/grpc';
import { Readiness } from '../health/readiness';
import { filesContaining, listServices } from '../testing/reflection';
import { startSidecar } from '../start-sidecar';
import { FakeControlPlane } from '../testing/fake-control-plane';
import { call } from '../testing/grpc-call';
import { testConfig } from '../testing/test-config';
import {
  createTestKey,
  signAccessToken,
  signServiceToken,
  signUserToken,
  type TestKey,
} from '../testing/test-keys';
import { SidecarGrpcServer } from './sidecar-grpc.server';

const SCOPES = 'entitlements.read quotas.read quotas.consume flags.read';
const PRO = {
  description: 'Pro',
  features: { sso: true, support: 'business', seats: 50, audit_export: false },
  quotas: {
    exports: { limit: 5, period: 'month' },
    reports: { limit: 2, period: 'month', enforcement: 'soft', thresholds: [50, 100] },
  },
};
const FREE = { features: { seats: 3 }, quotas: { exports: { limit: 1, period: 'month' } } };
const LONG_AGO = '2020-01-01T00:00:00Z';
const FLAGS = {
  flags: {
    'bulk-export': {
      state: 'ENABLED',
      variants: { on: true, off: false },
      defaultVariant: 'off',
      targeting: { if: [{ '==': [{ var: 'plan' }, 'pro'] }, 'on', 'off'] },
    },
  },
};

const decidedBy = (error: grpc.ServiceError | null) => error?.metadata.get(DECIDED_BY_METADATA);

/**
 * EntitlementService and QuotaService on a real sidecar over a fake control plane (which counts
 * as the real one does when no Redis is configured; Redis counting: test/quota-counting.medium-spec.ts),
 * and the plan in the flags' evaluation context.
 */
describe('sidecar gRPC: EntitlementService and QuotaService (counted by the control plane)', () => {
  let key: TestKey;
  let controlPlane: FakeControlPlane;
  let app: INestApplicationContext;
  let entitlements: EntitlementServiceClient;
  let quotas: QuotaServiceClient;
  let flags: FlagServiceClient;
  let version = 1;

  const serviceToken = (clientId: string, scope: string, tenant?: string) =>
    signServiceToken(key, clientId, scope, tenant);
  const userToken = (roles: string[], tenant: string, scope = SCOPES) =>
    signUserToken(key, roles, tenant, scope);
  const subscribe = (tenant: string, document: Record<string, unknown>) =>
    controlPlane.publishDefinition({
      kind: 'subscriptions',
      tenant,
      name: 'subscription',
      version: version++,
      document,
    });
  const definePlan = (name: string, document: Record<string, unknown>) =>
    controlPlane.publishDefinition({ kind: 'plans', tenant: '*', name, version: version++, document });
  /** Until the sidecar has applied what was just published (the feed is followed, not read per call). */
  const applied = async (tenant: string, accept: (answer: ListEntitlementsResult) => boolean) => {
    const token = await serviceToken('reader', SCOPES);
    for (let tries = 0; tries < 200; tries++) {
      const { response } = await list(token, tenant);
      if (response && accept(response)) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`not applied for ${tenant}`);
  };

  const check = (token: string, feature: string, tenant = '', amount = 0) =>
    call<CheckEntitlementResult>((done) =>
      entitlements.CheckEntitlement({ token, tenant, feature, amount }, done),
    );
  const list = (token: string, tenant = '') =>
    call<ListEntitlementsResult>((done) => entitlements.ListEntitlements({ token, tenant }, done));
  const consume = (
    token: string,
    meter: string,
    options: { tenant?: string; units?: number; key?: string } = {},
  ) =>
    call<QuotaResult>((done) =>
      quotas.ConsumeQuota(
        {
          token,
          meter,
          tenant: options.tenant ?? '',
          units: options.units ?? 0,
          idempotency_key: options.key ?? '',
        },
        done,
      ),
    );
  const usage = (token: string, meter: string, tenant = '') =>
    call<QuotaResult>((done) => quotas.GetQuotaUsage({ token, meter, tenant }, done));

  beforeAll(async () => {
    Logger.overrideLogger(false);
    key = await createTestKey('RS256');
    controlPlane = new FakeControlPlane();
    controlPlane.publish(key.publicJwk);
    definePlan('pro', PRO);
    definePlan('free', FREE);
    subscribe('acme', {
      zone: 'Europe/Paris',
      assignments: [{ plan: 'pro', from: LONG_AGO }],
      overrides: [{ reason: 'add-on', features: { audit_export: true, support: null } }],
    });
    subscribe('globex', { assignments: [{ plan: 'free', from: LONG_AGO }] });
    for (const tenant of ['acme', 'globex', 'initech']) {
      controlPlane.publishDefinition({
        kind: 'flags',
        tenant,
        name: 'flags',
        version: version++,
        document: FLAGS,
      });
    }
    app = await startSidecar({ config: testConfig(), controlPlane }, { logger: false, abortOnError: false });
    await app.get(Readiness).whenReady();
    const address = `127.0.0.1:${app.get(SidecarGrpcServer).port}`;
    entitlements = createEntitlementServiceClient(address);
    quotas = createQuotaServiceClient(address);
    flags = createFlagServiceClient(address);
  });

  afterAll(async () => {
    for (const client of [entitlements, quotas, flags]) client.close();
    await app.close();
  });

  it('serves both services in health and reflection, their imported well-known types described', async () => {
    const address = `127.0.0.1:${app.get(SidecarGrpcServer).port}`;
    expect(await listServices(address)).toEqual(
      expect.arrayContaining([
        'platform.entitlements.v1.EntitlementService',
        'platform.quotas.v1.QuotaService',
      ]),
    );
    const wellKnown = async (symbol: string) =>
      (await filesContaining(address, symbol)).find((file) => file.name === 'google_protobuf.proto')
        ?.messages;
    expect(await wellKnown('platform.quotas.v1.QuotaService')).toEqual(expect.arrayContaining(['Timestamp']));
    expect(await wellKnown('platform.entitlements.v1.EntitlementService')).toEqual(
      expect.arrayContaining(['Value', 'Struct', 'ListValue']),
    );
    expect(await wellKnown('platform.ratelimit.v1.RateLimitService')).toEqual(
      expect.arrayContaining(['Duration']),
    );
    const Health = grpc.makeGenericClientConstructor(
      healthService as unknown as grpc.ServiceDefinition,
      'grpc.health.v1.Health',
    );
    const health = new Health(address, grpc.credentials.createInsecure()) as unknown as grpc.Client & {
      Check(
        request: { service: string },
        done: (error: grpc.ServiceError | null, answer?: { status: string }) => void,
      ): void;
    };
    try {
      for (const service of [
        'platform.entitlements.v1.EntitlementService',
        'platform.quotas.v1.QuotaService',
      ]) {
        const { error, response } = await call<{ status: string }>((done) => health.Check({ service }, done));
        expect({ service, error, status: response?.status }).toEqual({
          service,
          error: null,
          status: 'SERVING',
        });
      }
    } finally {
      health.close();
    }
  });

  describe('EntitlementService', () => {
    it('checks a feature of the plan in force, with the overrides in force applied', async () => {
      const token = await userToken(['viewer'], 'acme');

      expect((await check(token, 'sso')).response).toEqual({
        entitled: true,
        value: { boolValue: true, kind: 'boolValue' },
        plan: 'pro',
      });
      // The add-on override turns it on; it also removed `support`.
      expect((await check(token, 'audit_export')).response).toMatchObject({ entitled: true });
      expect((await check(token, 'support')).response).toEqual({ entitled: false, value: null, plan: 'pro' });
    });

    it('checks a numeric feature against the amount asked (0 means 1)', async () => {
      const token = await userToken(['user'], 'acme');

      expect((await check(token, 'seats', '', 50)).response).toMatchObject({
        entitled: true,
        value: { numberValue: 50 },
      });
      expect((await check(token, 'seats', '', 51)).response).toMatchObject({
        entitled: false,
        value: { numberValue: 50 },
      });
      expect((await check(token, 'seats')).response.entitled).toBe(true);
    });

    it('answers a feature the plan does not name, and a tenant without a subscription, as not entitled', async () => {
      expect((await check(await userToken(['user'], 'acme'), 'sla')).response).toEqual({
        entitled: false,
        value: null,
        plan: 'pro',
      });
      expect((await check(await userToken(['user'], 'initech'), 'sso')).response).toEqual({
        entitled: false,
        value: null,
        plan: '',
      });
    });

    it('lists the plan, zone, features and quotas in force', async () => {
      const { error, response } = await list(await serviceToken('billing', SCOPES, 'acme'));

      expect(error).toBeNull();
      expect(response).toEqual({
        plan: 'pro',
        zone: 'Europe/Paris',
        features: {
          sso: { boolValue: true, kind: 'boolValue' },
          seats: { numberValue: 50, kind: 'numberValue' },
          audit_export: { boolValue: true, kind: 'boolValue' },
        },
        quotas: {
          exports: { limit: 5, period: 'month', enforcement: 'hard', thresholds: [80, 100] },
          reports: { limit: 2, period: 'month', enforcement: 'soft', thresholds: [50, 100] },
        },
      });
      expect((await list(await userToken(['user'], 'initech'))).response).toEqual({
        plan: '',
        zone: 'UTC',
        features: {},
        quotas: {},
      });
    });

    it('applies a changed plan and a changed subscription without a restart', async () => {
      definePlan('free', { ...FREE, features: { seats: 4, sso: 'saml' } });
      await applied('globex', (a) => a.features.seats?.numberValue === 4);
      const token = await userToken(['user'], 'globex');
      expect((await check(token, 'sso')).response).toMatchObject({
        entitled: true,
        value: { stringValue: 'saml' },
      });

      // An assignment that starts later does not apply yet; one that ended no longer does.
      subscribe('globex', {
        assignments: [
          { plan: 'free', from: LONG_AGO, until: '2021-01-01T00:00:00Z' },
          { plan: 'pro', from: '2099-01-01T00:00:00Z' },
        ],
      });
      await applied('globex', (a) => a.plan === '');
      expect((await check(token, 'sso')).response).toEqual({ entitled: false, value: null, plan: '' });
      subscribe('globex', { assignments: [{ plan: 'free', from: LONG_AGO }] });
      await applied('globex', (a) => a.plan === 'free');
    });

    it('refuses a token without entitlements.read, a user or a bound app naming another tenant', async () => {
      const refused: Array<[string, string, string]> = [
        [await userToken(['user'], 'acme', 'quotas.read'), '', 'token-scope'],
        [await serviceToken('scraper', 'jobs.read'), 'acme', 'token-scope'],
        [await userToken(['tenant_admin'], 'globex'), 'acme', 'tenant-isolation'],
        [await serviceToken('globex-billing', SCOPES, 'globex'), 'acme', 'tenant-binding'],
      ];
      for (const [token, tenant, by] of refused) {
        for (const { error } of [await check(token, 'sso', tenant), await list(token, tenant)]) {
          expect(error).toMatchObject({ code: grpc.status.PERMISSION_DENIED });
          expect(decidedBy(error)).toEqual([by]);
        }
      }
    });

    it('refuses a feature name that is not one, an empty token, and an unbound app naming no tenant', async () => {
      const token = await userToken(['user'], 'acme');
      for (const feature of ['', 'SSO', '1seats', 'a'.repeat(65), 'sso:x']) {
        expect((await check(token, feature)).error).toMatchObject({ code: grpc.status.INVALID_ARGUMENT });
      }
      expect((await check('', 'sso')).error).toMatchObject({ code: grpc.status.INVALID_ARGUMENT });
      expect((await check('x.y.z', 'sso')).error).toMatchObject({ code: grpc.status.UNAUTHENTICATED });
      const unbound = await list(await serviceToken('billing', SCOPES));
      expect(unbound.error).toMatchObject({ code: grpc.status.INVALID_ARGUMENT });
      expect(unbound.error?.details).toMatch(/tenant is required/);
    });
  });

  describe('QuotaService, counted by the control plane', () => {
    /** A tenant on `pro` of its own: each test counts from 0. */
    let tenants = 0;
    const freshTenant = async () => {
      const tenant = `t${++tenants}`;
      subscribe(tenant, { assignments: [{ plan: 'pro', from: LONG_AGO }] });
      await applied(tenant, (a) => a.plan === 'pro');
      return { tenant, token: await serviceToken(`${tenant}-app`, SCOPES, tenant) };
    };

    it('consumes to the limit, then refuses with RESOURCE_EXHAUSTED and a RetryInfo until the window ends', async () => {
      const { tenant, token } = await freshTenant();
      const window = quotaWindow(new Date(), 'month', 'UTC');
      const first = await consume(token, 'exports', { units: 3 });

      expect(first.error).toBeNull();
      expect(first.response).toEqual({
        limited: true,
        granted: true,
        replayed: false,
        used: 3,
        limit: 5,
        remaining: 2,
        period_start: { seconds: window.start.getTime() / 1000, nanos: 0 },
        reset_time: { seconds: window.end.getTime() / 1000, nanos: 0 },
        enforcement: 'hard',
      });
      expect((await consume(token, 'exports', { units: 2 })).response).toMatchObject({
        used: 5,
        remaining: 0,
      });
      const over = await consume(token, 'exports');
      expect(over.error).toMatchObject({ code: grpc.status.RESOURCE_EXHAUSTED });
      expect(over.error?.details).toMatch(
        new RegExp(`^quota exports of tenant ${tenant} exhausted: 5 of 5 used until`),
      );
      const wait = readRetryInfo(over.error?.metadata)?.retryAfterSeconds ?? 0;
      const untilEnd = (window.end.getTime() - Date.now()) / 1000;
      expect(Math.abs(wait - untilEnd)).toBeLessThan(5);
      expect(controlPlane.quotaCounts.get(`${tenant} exports ${window.start.getTime()}`)).toBe(5);
    });

    it('grants exactly the limit to 8 concurrent consumers', async () => {
      const { token } = await freshTenant();
      const answers = await Promise.all(Array.from({ length: 8 }, () => consume(token, 'exports')));

      expect(answers.filter((a) => a.error === null)).toHaveLength(5);
      expect(answers.filter((a) => a.error?.code === grpc.status.RESOURCE_EXHAUSTED)).toHaveLength(3);
      expect((await usage(token, 'exports')).response).toMatchObject({ used: 5, granted: false });
    });

    it('answers a retry with the same idempotency key its first count, counting it once', async () => {
      const { token } = await freshTenant();
      const first = await consume(token, 'exports', { units: 2, key: 'export-42' });
      await consume(token, 'exports');
      const retry = await consume(token, 'exports', { units: 2, key: 'export-42' });

      expect(first.response).toMatchObject({ used: 2, replayed: false });
      expect(retry.response).toMatchObject({ granted: true, used: 2, replayed: true });
      expect((await usage(token, 'exports')).response.used).toBe(3);
      expect(controlPlane.quotaCalls.at(-2)).toEqual({
        tenant: expect.any(String),
        meter: 'exports',
        units: 2,
        idempotency_key: 'export-42',
      });
    });

    it('counts past a soft limit, and answers a meter no quota limits as not limited, counting nothing', async () => {
      const { tenant, token } = await freshTenant();
      await consume(token, 'reports', { units: 2 });
      expect((await consume(token, 'reports')).response).toMatchObject({
        granted: true,
        used: 3,
        remaining: 0,
        enforcement: 'soft',
      });
      expect((await usage(token, 'reports')).response).toMatchObject({ used: 3, granted: true });

      const free = await consume(token, 'uploads', { units: 10 });
      expect(free.error).toBeNull();
      expect(free.response).toEqual({
        limited: false,
        granted: true,
        replayed: false,
        used: 0,
        limit: 0,
        remaining: 0,
        period_start: null,
        reset_time: null,
        enforcement: '',
      });
      expect([...controlPlane.quotaCounts.keys()].filter((k) => k.startsWith(`${tenant} uploads`))).toEqual(
        [],
      );
    });

    it('reads the usage without counting: GetQuotaUsage needs quotas.read only', async () => {
      const { tenant } = await freshTenant();
      const viewer = await serviceToken(`${tenant}-viewer`, 'quotas.read', tenant);
      const counts = controlPlane.quotaCalls.length;

      expect((await usage(viewer, 'exports')).response).toMatchObject({
        limited: true,
        granted: true,
        used: 0,
        limit: 5,
        remaining: 5,
      });
      expect(controlPlane.quotaCalls.slice(counts)).toEqual([{ tenant, meter: 'exports', units: 0 }]);
      const refused = await consume(viewer, 'exports');
      expect(refused.error).toMatchObject({ code: grpc.status.PERMISSION_DENIED });
      expect(decidedBy(refused.error)).toEqual(['token-scope']);
    });

    it("refuses another tenant's token, a user without quotas.consume, and counts nothing", async () => {
      const { tenant } = await freshTenant();
      const counts = controlPlane.quotaCalls.length;
      const refused: Array<[string, string]> = [
        [await userToken(['user'], 'globex'), 'tenant-isolation'],
        [await serviceToken('globex-app', SCOPES, 'globex'), 'tenant-binding'],
        // A viewer's token carries the scope, but no role of the viewer's allows it: the default deny.
        [await userToken(['viewer'], tenant), ''],
        [await userToken(['user'], tenant, 'quotas.read'), 'token-scope'],
      ];
      for (const [token, by] of refused) {
        const { error } = await consume(token, 'exports', { tenant });
        expect(error).toMatchObject({ code: grpc.status.PERMISSION_DENIED });
        expect(decidedBy(error)).toEqual(by === '' ? [] : [by]);
      }
      expect(controlPlane.quotaCalls.length).toBe(counts);
      // A user of the tenant with the role and the scope consumes there.
      expect((await consume(await userToken(['user'], tenant), 'exports')).response).toMatchObject({
        used: 1,
      });
    });

    it('refuses a bad meter name, too many units, a long idempotency key and a malformed tenant: INVALID_ARGUMENT', async () => {
      const { token } = await freshTenant();
      const platformApp = await serviceToken('metering', SCOPES);
      const bad = [
        await consume(token, 'Exports'),
        await consume(token, ''),
        await consume(token, 'exports:x'),
        await usage(token, 'a'.repeat(65)),
        await consume(token, 'exports', { units: 1_000_000_001 }),
        await consume(token, 'exports', { key: 'k'.repeat(129) }),
        await consume(platformApp, 'exports', { tenant: 'acme/../globex' }),
      ];
      for (const { error } of bad) expect(error).toMatchObject({ code: grpc.status.INVALID_ARGUMENT });
      expect((await consume(platformApp, 'exports')).error?.details).toMatch(/tenant is required/);
    });

    it('answers UNAVAILABLE, never INTERNAL, while the control plane cannot be reached', async () => {
      const { token } = await freshTenant();
      controlPlane.reachable = false;
      try {
        expect((await consume(token, 'exports')).error).toMatchObject({ code: grpc.status.UNAVAILABLE });
        expect((await usage(token, 'exports')).error).toMatchObject({ code: grpc.status.UNAVAILABLE });
      } finally {
        controlPlane.reachable = true;
      }
      expect((await consume(token, 'exports')).response).toMatchObject({ used: 1 });
    });
  });

  describe('FlagService: the plan in the evaluation context', () => {
    const evaluate = (token: string, context: object = {}) =>
      call<EvaluateFlagResult>((done) =>
        flags.EvaluateFlag(
          {
            token,
            flag_key: 'bulk-export',
            type: 'boolean',
            default_value: { bool_value: false },
            context_json: JSON.stringify(context),
          },
          done,
        ),
      );

    it('targets on the tenant’s plan in force, which the caller cannot claim', async () => {
      expect((await evaluate(await userToken(['user'], 'acme'))).response).toMatchObject({
        value: { bool_value: true },
        reason: 'TARGETING_MATCH',
      });
      expect((await evaluate(await userToken(['user'], 'globex'))).response.value).toEqual({
        bool_value: false,
        value: 'bool_value',
      });
      // initech has no plan: a `plan` attribute of the caller's is dropped, not believed.
      expect((await evaluate(await userToken(['user'], 'initech'), { plan: 'pro' })).response.value).toEqual({
        bool_value: false,
        value: 'bool_value',
      });
      expect(
        (await evaluate(await userToken(['user'], 'globex'), { plan: 'pro' })).response.value?.bool_value,
      ).toBe(false);
    });
  });
});

describe('sidecar gRPC: plans not loaded', () => {
  it('answers UNAVAILABLE for entitlements and quotas until the definitions are loaded', async () => {
    Logger.overrideLogger(false);
    const key = await createTestKey('RS256');
    const controlPlane = new FakeControlPlane();
    controlPlane.publish(key.publicJwk);
    controlPlane.fetchDefinitionsAfter = async () => {
      throw new Error('feed down');
    };
    const app = await startSidecar(
      { config: testConfig(), controlPlane },
      { logger: false, abortOnError: false },
    );
    const address = `127.0.0.1:${app.get(SidecarGrpcServer).port}`;
    const entitlements = createEntitlementServiceClient(address);
    const quotas = createQuotaServiceClient(address);
    try {
      const token = await signAccessToken(key, {
        claims: { sub: 'u', client_id: 'portal', scope: SCOPES, tenant: 'acme', roles: ['user'] },
      });
      const checked = await call<CheckEntitlementResult>((done) =>
        entitlements.CheckEntitlement({ token, feature: 'sso' }, done),
      );
      const consumed = await call<QuotaResult>((done) =>
        quotas.ConsumeQuota({ token, meter: 'exports' }, done),
      );

      expect(checked.error).toMatchObject({ code: grpc.status.UNAVAILABLE });
      expect(consumed.error).toMatchObject({ code: grpc.status.UNAVAILABLE });
      expect(controlPlane.quotaCalls).toEqual([]);
    } finally {
      entitlements.close();
      quotas.close();
      await app.close();
    }
  });
});
