import * as grpc from '@grpc/grpc-js';
import {
  type CheckRateLimitResult,
  createRateLimitServiceClient,
  type RateLimitServiceClient,
} from '@platform/grpc';
import { Redis } from 'ioredis';
import { unaryCall as call } from '../../support/grpc';
import { identityOf, signIn } from '../../support/internal-consent';
import { adminToken, clientCredentialsToken, discover, registerApp } from '../../support/oauth';
import { startExtraSidecar, startPlatform, type TestPlatform } from '../../support/platform';
import { redisSuiteEnabled, TEST_REDIS_URL } from '../../support/redis';

const entry = (key: string, value: string) => ({ entries: [{ key, value }] });

/**
 * The sidecar's RateLimitService end to end: rules set over REST reach two sidecars within a
 * second, both count in one real Redis, and every error path the proto names.
 */
(redisSuiteEnabled('the rate limit service suite') ? describe : describe.skip)(
  'sidecar gRPC: RateLimitService, two sidecars sharing Redis',
  () => {
    let platform: TestPlatform;
    let second: { address: string; stop(): Promise<void> };
    let first: RateLimitServiceClient;
    let other: RateLimitServiceClient;
    let admin: string;
    let service: string;
    let globexUser: string;

    beforeAll(async () => {
      const redis = new Redis(TEST_REDIS_URL);
      const stale = await redis.keys('platform:rls:*');
      if (stale.length > 0) await redis.del(...stale);
      redis.disconnect();
      platform = await startPlatform({ env: { RATE_LIMIT_REDIS_URL: TEST_REDIS_URL } });
      second = await startExtraSidecar(platform);
      const as = await discover(platform);
      admin = await adminToken(as, platform);
      const gateway = await registerApp(platform, admin, {
        client_id: 'edge-gateway',
        declared_scopes: ['ratelimit.check'],
      });
      service = (
        await clientCredentialsToken(as, {
          clientId: gateway.client_id,
          clientSecret: gateway.client_secret!,
        })
      ).access_token;
      const portal = await registerApp(platform, admin, {
        client_id: 'portal',
        app_type: 'web',
        declared_scopes: ['ratelimit.check'],
        redirect_uris: ['https://portal.example.test/callback'],
      });
      globexUser = (await signIn(platform, portal, { identity: identityOf('gus', 'globex', ['user']) }))
        .tokens.access_token;
      first = createRateLimitServiceClient(platform.sidecarAddress);
      other = createRateLimitServiceClient(second.address);
    });
    afterAll(async () => {
      first?.close();
      other?.close();
      await second?.stop();
      await platform?.stop();
    });

    const rules = (
      tenant: string,
      domain: string,
      method: 'PUT' | 'GET' | 'DELETE',
      body?: unknown,
      token = admin,
    ) =>
      fetch(`${platform.baseUrl}/api/v1/tenants/${tenant}/rate-limits/${domain}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      });

    const check = (
      client: RateLimitServiceClient,
      request: Parameters<RateLimitServiceClient['CheckRateLimit']>[0],
    ) =>
      call<CheckRateLimitResult>((metadata, options, done) =>
        client.CheckRateLimit(request, metadata, options, done),
      );
    const reset = (request: Parameters<RateLimitServiceClient['ResetRateLimit']>[0]) =>
      call<object>((metadata, options, done) => first.ResetRateLimit(request, metadata, options, done));

    /** Checks at `client` until `accept` holds; answers how long that took. */
    async function until(
      client: RateLimitServiceClient,
      request: Parameters<RateLimitServiceClient['CheckRateLimit']>[0],
      accept: (answer: CheckRateLimitResult) => boolean,
    ): Promise<number> {
      const started = Date.now();
      for (;;) {
        const { error, response } = await check(client, request);
        if (!error && accept(response)) return Date.now() - started;
        if (Date.now() - started > 3000)
          throw new Error(`not applied after 3 s: ${error?.message ?? JSON.stringify(response)}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    }

    it('shares one count between two sidecars through Redis, as Envoy’s service answers', async () => {
      const put = await rules('acme', 'checkout', 'PUT', {
        descriptors: [{ key: 'remote_address', rate_limit: { unit: 'minute', requests_per_unit: 3 } }],
      });
      expect(put.status).toBe(200);
      expect(await put.json()).toMatchObject({ tenant: 'acme', domain: 'checkout', version: 1 });
      const request = {
        token: service,
        tenant: 'acme',
        domain: 'checkout',
        descriptors: [entry('remote_address', '10.0.0.7')],
      };
      for (const sidecar of [first, other]) {
        const warmUp = { ...request, descriptors: [entry('remote_address', 'warm-up')] };
        await until(sidecar, warmUp, (a) => a.statuses[0].current_limit !== null);
      }

      const one = await check(first, { ...request, hits_addend: 2 });
      expect(one.error).toBeNull();
      expect(one.response).toMatchObject({
        overall_code: 'OK',
        statuses: [
          {
            code: 'OK',
            current_limit: { requests_per_unit: 3, unit: 'MINUTE', name: 'checkout:remote_address=10.0.0.7' },
            limit_remaining: 1,
          },
        ],
      });
      expect((await check(other, request)).response.statuses[0]).toMatchObject({
        code: 'OK',
        limit_remaining: 0,
      });
      const over = await check(first, request);
      expect(over.response.overall_code).toBe('OVER_LIMIT');
      expect(over.response.statuses[0]).toMatchObject({ code: 'OVER_LIMIT', limit_remaining: 0 });
      expect(Number(over.response.statuses[0].duration_until_reset?.seconds)).toBeGreaterThan(0);
      // Another address has its own count.
      const fresh = await check(other, { ...request, descriptors: [entry('remote_address', '10.0.0.8')] });
      expect(fresh.response.statuses[0]).toMatchObject({ code: 'OK', limit_remaining: 2 });

      // ResetRateLimit is an administrator's: a service token may check, not reset.
      const unblock = { tenant: 'acme', domain: 'checkout', descriptor: entry('remote_address', '10.0.0.7') };
      expect((await reset({ ...unblock, token: service })).error?.code).toBe(grpc.status.PERMISSION_DENIED);
      expect((await check(other, request)).response.overall_code).toBe('OVER_LIMIT');
      // An admin's reset forgets the count at every sidecar, and is in the tenant's audit log.
      expect((await reset({ ...unblock, token: admin })).error).toBeNull();
      expect((await check(other, request)).response.statuses[0]).toMatchObject({
        code: 'OK',
        limit_remaining: 2,
      });
      const audit = await fetch(
        `${platform.baseUrl}/api/v1/audit/records?action=ratelimit.counter_reset&target=checkout`,
        { headers: { authorization: `Bearer ${admin}` } },
      );
      const { records } = (await audit.json()) as { records: Array<Record<string, unknown>> };
      expect(records).toEqual([
        expect.objectContaining({
          tenant: 'acme',
          attributes: { descriptor: 'remote_address=10.0.0.7' },
        }),
      ]);
    });

    it('applies a change of the rules at the other sidecar within a second, and a deletion too', async () => {
      const request = {
        token: service,
        tenant: 'acme',
        domain: 'search',
        descriptors: [entry('user', 'ada')],
      };
      await rules('acme', 'search', 'PUT', {
        descriptors: [{ key: 'user', rate_limit: { unit: 'second', requests_per_unit: 5 } }],
      });
      await until(other, request, (a) => a.statuses[0].current_limit?.requests_per_unit === 5);

      const changed = Date.now();
      await rules('acme', 'search', 'PUT', {
        descriptors: [{ key: 'user', rate_limit: { unit: 'hour', requests_per_unit: 500, burst: 20 } }],
      });
      await until(other, request, (a) => a.statuses[0].current_limit?.requests_per_unit === 500);
      expect(Date.now() - changed).toBeLessThan(1000);

      const deleted = Date.now();
      expect((await rules('acme', 'search', 'DELETE')).status).toBe(204);
      await until(other, request, (a) => a.statuses[0].current_limit === null);
      expect(Date.now() - deleted).toBeLessThan(1000);
      expect((await rules('acme', 'search', 'GET')).status).toBe(404);
    });

    it('answers OK without a limit for a descriptor or domain no rule covers', async () => {
      const { response } = await check(first, {
        token: service,
        tenant: 'acme',
        domain: 'unknown-domain',
        descriptors: [entry('remote_address', '10.0.0.9')],
      });
      expect(response).toMatchObject({ overall_code: 'OK', statuses: [{ code: 'OK', current_limit: null }] });
    });

    it.each([
      ['no domain', { descriptors: [entry('a', 'b')] }, grpc.status.INVALID_ARGUMENT],
      ['no descriptor', { domain: 'checkout', descriptors: [] }, grpc.status.INVALID_ARGUMENT],
      [
        'a descriptor without entries',
        { domain: 'checkout', descriptors: [{ entries: [] }] },
        grpc.status.INVALID_ARGUMENT,
      ],
      [
        'an entry without a key',
        { domain: 'checkout', descriptors: [{ entries: [{ value: 'x' }] }] },
        grpc.status.INVALID_ARGUMENT,
      ],
    ])('refuses %s: INVALID_ARGUMENT', async (_, request, code) => {
      expect((await check(first, { token: service, tenant: 'acme', ...request })).error?.code).toBe(code);
    });

    it('refuses an empty token, an invalid one, and a user reaching into another tenant', async () => {
      const request = { domain: 'checkout', descriptors: [entry('remote_address', '1')] };
      expect((await check(first, { ...request, token: '' })).error?.code).toBe(grpc.status.INVALID_ARGUMENT);
      expect((await check(first, { ...request, token: 'x.y.z' })).error?.code).toBe(
        grpc.status.UNAUTHENTICATED,
      );
      expect((await check(first, { ...request, token: globexUser, tenant: 'acme' })).error?.code).toBe(
        grpc.status.PERMISSION_DENIED,
      );
      // Its own tenant, named or not: no rules there, so no limit.
      expect((await check(first, { ...request, token: globexUser })).error).toBeNull();
    });

    it('answers NOT_FOUND when resetting a descriptor no rule limits', async () => {
      const { error } = await reset({
        token: admin,
        tenant: 'acme',
        domain: 'checkout',
        descriptor: entry('country', 'FR'),
      });
      expect(error?.code).toBe(grpc.status.NOT_FOUND);
    });

    it('refuses rules it cannot read with the path to the problem, and non-admins', async () => {
      const bad = await rules('acme', 'checkout', 'PUT', {
        descriptors: [{ key: 'remote_address', rate_limit: { unit: 'fortnight', requests_per_unit: 3 } }],
      });
      expect(bad.status).toBe(400);
      expect(((await bad.json()) as { detail: string }).detail).toBe(
        'descriptors[0].rate_limit.unit must be one of second, minute, hour, day',
      );
      expect((await rules('acme', 'bad domain!', 'PUT', { descriptors: [] })).status).toBe(400);
      expect((await rules('acme', 'checkout', 'PUT', { descriptors: [] }, service)).status).toBe(403);
      const audit = await fetch(
        `${platform.baseUrl}/api/v1/audit/records?action=ratelimit.rules_changed&target=checkout`,
        {
          headers: { authorization: `Bearer ${admin}` },
        },
      );
      expect(((await audit.json()) as { records: unknown[] }).records).toHaveLength(1);
    });
  },
);
