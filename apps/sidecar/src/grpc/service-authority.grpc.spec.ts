import * as grpc from '@grpc/grpc-js';
import { Logger, type INestApplicationContext } from '@nestjs/common';
import {
  type CheckRateLimitResult,
  createFlagServiceClient,
  createMaskingServiceClient,
  createRateLimitServiceClient,
  DECIDED_BY_METADATA,
  type EvaluateFlagResult,
  type FlagServiceClient,
  type MaskingServiceClient,
  type MaskResult,
  type MaskStringResult,
  type RateLimitServiceClient,
} from '@platform/grpc';
import { Readiness } from '../health/readiness';
import { startSidecar } from '../start-sidecar';
import { FakeControlPlane } from '../testing/fake-control-plane';
import { testConfig } from '../testing/test-config';
import { createTestKey, signServiceToken, signUserToken, type TestKey } from '../testing/test-keys';
import { SidecarGrpcServer } from './sidecar-grpc.server';
import { call } from '../testing/grpc-call';

/** What decided a refusal (the x-decided-by trailer). */
const decidedBy = (error: grpc.ServiceError | null) => error?.metadata.get(DECIDED_BY_METADATA);

const SERVICES = 'ratelimit.check flags.read masking.apply';
const limited = (requestsPerUnit: number) => ({
  descriptors: [
    { key: 'remote_address', rate_limit: { unit: 'minute', requests_per_unit: requestsPerUnit } },
  ],
});
const plan = (variant: string) => ({
  flags: { plan: { state: 'ENABLED', variants: { [variant]: `${variant}-plan` }, defaultVariant: variant } },
});

/**
 * The sidecar's rate limit, flag and masking services each take their scope and the caller's
 * tenant reach (RPC_AUTHORITY): a token that does not hold the scope, a user naming another
 * tenant and an app bound to one tenant naming another are refused, whatever they ask.
 */
describe('sidecar gRPC: RateLimitService, FlagService and MaskingService decide scope and tenant', () => {
  let key: TestKey;
  let controlPlane: FakeControlPlane;
  let app: INestApplicationContext;
  let rateLimits: RateLimitServiceClient;
  let flags: FlagServiceClient;
  let masking: MaskingServiceClient;
  let descriptor = 0;

  const serviceToken = (clientId: string, scope: string, tenant?: string) =>
    signServiceToken(key, clientId, scope, tenant);
  const userToken = (roles: string[], tenant: string, scope = SERVICES) =>
    signUserToken(key, roles, tenant, scope);

  beforeAll(async () => {
    Logger.overrideLogger(false);
    key = await createTestKey('RS256');
    controlPlane = new FakeControlPlane();
    controlPlane.publish(key.publicJwk);
    for (const tenant of ['acme', 'globex']) {
      const definition = { tenant, version: 1 };
      controlPlane.publishDefinition({
        ...definition,
        kind: 'rate_limits',
        name: 'checkout',
        document: limited(3),
      });
      controlPlane.publishDefinition({ ...definition, kind: 'flags', name: 'flags', document: plan(tenant) });
    }
    // The reset's audit record (the real control plane's routes run end to end in test/e2e).
    controlPlane.callAsPrincipal = async () => ({ status: 201, body: {} });
    app = await startSidecar({ config: testConfig(), controlPlane }, { logger: false, abortOnError: false });
    await app.get(Readiness).whenReady();
    const address = `127.0.0.1:${app.get(SidecarGrpcServer).port}`;
    rateLimits = createRateLimitServiceClient(address);
    flags = createFlagServiceClient(address);
    masking = createMaskingServiceClient(address);
  });

  afterAll(async () => {
    for (const client of [rateLimits, flags, masking]) client.close();
    await app.close();
  });

  /** A remote address nobody has counted yet: each test starts from a full quota. */
  const freshAddress = () => `10.0.0.${++descriptor}`;
  const check = (token: string, tenant: string, address: string, hits = 1) =>
    call<CheckRateLimitResult>((done) =>
      rateLimits.CheckRateLimit(
        {
          token,
          tenant,
          domain: 'checkout',
          hits_addend: hits,
          descriptors: [{ entries: [{ key: 'remote_address', value: address }] }],
        },
        done,
      ),
    );
  const reset = (token: string, tenant: string, address: string) =>
    call<object>((done) =>
      rateLimits.ResetRateLimit(
        {
          token,
          tenant,
          domain: 'checkout',
          descriptor: { entries: [{ key: 'remote_address', value: address }] },
        },
        done,
      ),
    );
  const evaluate = (token: string, tenant = '') =>
    call<EvaluateFlagResult>((done) =>
      flags.EvaluateFlag(
        { token, tenant, flag_key: 'plan', type: 'string', default_value: { string_value: 'none' } },
        done,
      ),
    );
  const hash = { operators: { DEFAULT: { type: 'hash' } } };
  const maskString = (token: string) =>
    call<MaskStringResult>((done) =>
      masking.MaskString({ token, text: 'ada@example.com', options: hash }, done),
    );
  const mask = (token: string) =>
    call<MaskResult>((done) =>
      masking.Mask({ token, json: '{"email":"ada@example.com"}', options: hash }, done),
    );

  describe('RateLimitService.CheckRateLimit', () => {
    it("refuses a service account without ratelimit.check burning another tenant's counters, and counts nothing", async () => {
      const address = freshAddress();
      const burn = await check(await serviceToken('scraper', ''), 'globex', address, 1_000_000);

      expect(burn.error).toMatchObject({ code: grpc.status.PERMISSION_DENIED });
      expect(decidedBy(burn.error)).toEqual(['token-scope']);
      const after = await check(await serviceToken('gateway', SERVICES), 'globex', address);
      expect(after.response.statuses[0]).toMatchObject({ code: 'OK', limit_remaining: 2 });
    });

    it('refuses an app bound to acme counting in globex', async () => {
      const { error } = await check(
        await serviceToken('acme-gateway', SERVICES, 'acme'),
        'globex',
        freshAddress(),
      );

      expect(error).toMatchObject({ code: grpc.status.PERMISSION_DENIED });
      expect(decidedBy(error)).toEqual(['tenant-binding']);
    });

    it('refuses a user of acme counting in globex', async () => {
      const { error } = await check(await userToken(['tenant_admin'], 'acme'), 'globex', freshAddress());

      expect(error).toMatchObject({ code: grpc.status.PERMISSION_DENIED });
      expect(decidedBy(error)).toEqual(['tenant-isolation']);
    });

    it('refuses a user whose token does not carry ratelimit.check, in its own tenant too', async () => {
      const { error } = await check(await userToken(['user'], 'acme', 'users.read'), '', freshAddress());

      expect(error).toMatchObject({ code: grpc.status.PERMISSION_DENIED });
      expect(decidedBy(error)).toEqual(['token-scope']);
    });

    it('counts for the holders of ratelimit.check within their reach', async () => {
      const callers: Array<[string, string]> = [
        [await userToken(['viewer'], 'acme'), ''],
        [await userToken(['user'], 'acme'), 'acme'],
        [await serviceToken('acme-gateway', SERVICES, 'acme'), ''],
        [await serviceToken('gateway', SERVICES), 'globex'],
        [await userToken(['global_admin'], 'acme'), 'globex'],
      ];
      for (const [token, tenant] of callers) {
        const { error, response } = await check(token, tenant, freshAddress());

        expect(error).toBeNull();
        expect(response.statuses[0]).toMatchObject({ code: 'OK', limit_remaining: 2 });
      }
    });

    it('asks an app bound to no tenant to name one: INVALID_ARGUMENT', async () => {
      const { error } = await check(await serviceToken('gateway', SERVICES), '', freshAddress());

      expect(error).toMatchObject({ code: grpc.status.INVALID_ARGUMENT });
      expect(error?.details).toMatch(/tenant is required/);
    });
  });

  describe('RateLimitService.ResetRateLimit', () => {
    it('refuses a reset to all but platform administrators: a checking app, a tenant_admin, an app bound to acme with admin.*', async () => {
      const address = freshAddress();
      const refused: Array<[string, string, string]> = [
        [await serviceToken('gateway', SERVICES), 'acme', 'token-scope'],
        [await userToken(['tenant_admin'], 'acme'), 'acme', 'platform-admin'],
        [await serviceToken('acme-admin', 'admin.*', 'acme'), 'acme', 'tenant-binding'],
      ];
      for (const [token, tenant, by] of refused) {
        const { error } = await reset(token, tenant, address);

        expect(error).toMatchObject({ code: grpc.status.PERMISSION_DENIED });
        expect(decidedBy(error)).toEqual([by]);
      }
    });

    it('forgets the count for the admin app and a global_admin user', async () => {
      const gateway = await serviceToken('gateway', SERVICES);
      const administrators: Array<[string, string]> = [
        [await serviceToken('admin', 'admin.*'), 'acme'],
        [await userToken(['global_admin'], 'globex', 'users.read'), ''],
      ];
      for (const [token, tenant] of administrators) {
        const address = freshAddress();
        const counted = tenant || 'globex';
        await check(gateway, counted, address, 3);

        expect((await reset(token, tenant, address)).error).toBeNull();
        expect((await check(gateway, counted, address)).response.statuses[0]).toMatchObject({
          limit_remaining: 2,
        });
      }
    });
  });

  describe('FlagService.EvaluateFlag', () => {
    it("refuses a service account without flags.read reading another tenant's flags", async () => {
      const { error } = await evaluate(await serviceToken('scraper', ''), 'globex');

      expect(error).toMatchObject({ code: grpc.status.PERMISSION_DENIED });
      expect(decidedBy(error)).toEqual(['token-scope']);
    });

    it('refuses an app bound to acme and a user of acme naming globex', async () => {
      const bound = await evaluate(await serviceToken('acme-shop', SERVICES, 'acme'), 'globex');
      const user = await evaluate(await userToken(['user'], 'acme'), 'globex');

      expect(bound.error).toMatchObject({ code: grpc.status.PERMISSION_DENIED });
      expect(decidedBy(bound.error)).toEqual(['tenant-binding']);
      expect(user.error).toMatchObject({ code: grpc.status.PERMISSION_DENIED });
      expect(decidedBy(user.error)).toEqual(['tenant-isolation']);
    });

    it("answers the holders of flags.read their own tenant's flags, or the tenant they may reach", async () => {
      const answers: Array<[string, string, string]> = [
        [await userToken(['viewer'], 'acme'), '', 'acme-plan'],
        [await serviceToken('acme-shop', SERVICES, 'acme'), '', 'acme-plan'],
        [await serviceToken('shop', SERVICES), 'globex', 'globex-plan'],
        [await userToken(['global_admin'], 'acme'), 'globex', 'globex-plan'],
      ];
      for (const [token, tenant, value] of answers) {
        const { error, response } = await evaluate(token, tenant);

        expect(error).toBeNull();
        expect(response.value).toMatchObject({ string_value: value });
      }
    });

    it('asks an app bound to no tenant to name one: INVALID_ARGUMENT', async () => {
      expect((await evaluate(await serviceToken('shop', SERVICES))).error).toMatchObject({
        code: grpc.status.INVALID_ARGUMENT,
      });
    });
  });

  describe('MaskingService', () => {
    it('refuses a token without masking.apply, user or app: MaskString and Mask alike', async () => {
      for (const token of [
        await serviceToken('scraper', ''),
        await userToken(['user'], 'acme', 'users.read'),
      ]) {
        for (const { error } of [await maskString(token), await mask(token)]) {
          expect(error).toMatchObject({ code: grpc.status.PERMISSION_DENIED });
          expect(decidedBy(error)).toEqual(['token-scope']);
        }
      }
    });

    it("hashes under the caller's own tenant's key: a bound app as its tenant's users, an unbound app the platform's", async () => {
      const ofUser = await maskString(await userToken(['viewer'], 'acme'));
      const ofBound = await maskString(await serviceToken('acme-shipper', SERVICES, 'acme'));
      const ofPlatform = await maskString(await serviceToken('shipper', SERVICES));
      const ofGlobex = await maskString(await userToken(['user'], 'globex'));

      expect(ofUser.error).toBeNull();
      expect(ofBound.response.text).toBe(ofUser.response.text);
      expect(ofPlatform.response.text).not.toBe(ofUser.response.text);
      expect(ofGlobex.response.text).not.toBe(ofUser.response.text);
      expect((await mask(await serviceToken('shipper', SERVICES))).error).toBeNull();
    });
  });
});
