import * as grpc from '@grpc/grpc-js';
import {
  type CheckRateLimitResult,
  createFlagServiceClient,
  createRateLimitServiceClient,
  type EvaluateFlagResult,
  type FlagServiceClient,
  type RateLimitServiceClient,
} from '@platform/grpc';
import { unaryCall as call } from '../../support/grpc';
import { identityOf, signIn } from '../../support/internal-consent';
import { adminToken, clientCredentialsToken, discover, registerApp } from '../../support/oauth';
import { sharedPlatform, type TestPlatform } from '../../support/platform';

/** Its own tenants and apps on the shared platform: it sets their rate limits and flags. */
const ACME = 'reach-acme';
const GLOBEX = 'reach-globex';

const SCOPES = ['ratelimit.check', 'flags.read'];

/**
 * Issue 36, reproduction 4, end to end: CheckRateLimit and EvaluateFlag take their scope
 * (`ratelimit.check`, `flags.read`) and the caller's tenant reach. A service account without
 * the scope cannot burn globex's counters or read its flags; an app bound to acme and a user of
 * acme cannot name globex; the holders of the scope still count and evaluate.
 */
describe('sidecar gRPC: rate limits and flags within the caller’s scope and tenant', () => {
  let platform: TestPlatform;
  let rateLimits: RateLimitServiceClient;
  let flags: FlagServiceClient;
  let admin: string;
  /** A service account holding neither scope. */
  let scraper: string;
  /** A service app bound to acme, holding both. */
  let acmeGateway: string;
  /** A service app bound to no tenant, holding both. */
  let gateway: string;
  /** A user of acme, signed in to an app declaring both. */
  let acmeUser: string;
  let address = 0;

  beforeAll(async () => {
    platform = sharedPlatform();
    const as = await discover(platform);
    admin = await adminToken(as, platform);
    const serviceToken = async (clientId: string, declared: string[], tenant?: string) => {
      const app = await registerApp(platform, admin, {
        client_id: clientId,
        declared_scopes: declared,
        ...(tenant !== undefined && { tenant }),
      });
      return (await clientCredentialsToken(as, { clientId, clientSecret: app.client_secret! })).access_token;
    };
    scraper = await serviceToken('reach-scraper', ['users.read']);
    acmeGateway = await serviceToken('reach-acme-gateway', SCOPES, ACME);
    gateway = await serviceToken('reach-gateway', SCOPES);
    const portal = await registerApp(platform, admin, {
      client_id: 'reach-storefront',
      app_type: 'web',
      declared_scopes: SCOPES,
      redirect_uris: ['https://storefront.example.test/reach/callback'],
    });
    acmeUser = (await signIn(platform, portal, { identity: identityOf('reach-ada', ACME, ['user']) })).tokens
      .access_token;
    for (const tenant of [ACME, GLOBEX]) {
      const headers = { authorization: `Bearer ${admin}`, 'content-type': 'application/json' };
      const rules = await fetch(`${platform.baseUrl}/api/v1/tenants/${tenant}/rate-limits/checkout`, {
        method: 'PUT',
        headers,
        body: JSON.stringify({
          descriptors: [{ key: 'remote_address', rate_limit: { unit: 'hour', requests_per_unit: 3 } }],
        }),
      });
      const plan = await fetch(`${platform.baseUrl}/api/v1/tenants/${tenant}/flags`, {
        method: 'PUT',
        headers,
        body: JSON.stringify({
          flags: {
            plan: { state: 'ENABLED', variants: { [tenant]: `${tenant}-plan` }, defaultVariant: tenant },
          },
        }),
      });
      expect([rules.status, plan.status]).toEqual([200, 200]);
    }
    rateLimits = createRateLimitServiceClient(platform.sidecarAddress);
    flags = createFlagServiceClient(platform.sidecarAddress);
    // The definitions reach the sidecar within a second.
    const deadline = Date.now() + 5000;
    while (!(await check(gateway, GLOBEX, 'warm-up')).response?.statuses[0].current_limit) {
      if (Date.now() > deadline) throw new Error('the rate limit rules never reached the sidecar');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  });
  afterAll(async () => {
    rateLimits?.close();
    flags?.close();
  });

  /** A remote address nobody has counted yet. */
  const fresh = () => `192.0.2.${++address}`;
  const check = (token: string, tenant: string, remoteAddress: string, hits = 1) =>
    call<CheckRateLimitResult>((metadata, options, done) =>
      rateLimits.CheckRateLimit(
        {
          token,
          tenant,
          domain: 'checkout',
          hits_addend: hits,
          descriptors: [{ entries: [{ key: 'remote_address', value: remoteAddress }] }],
        },
        metadata,
        options,
        done,
      ),
    );
  const evaluate = (token: string, tenant: string) =>
    call<EvaluateFlagResult>((metadata, options, done) =>
      flags.EvaluateFlag(
        { token, tenant, flag_key: 'plan', type: 'string', default_value: { string_value: 'none' } },
        metadata,
        options,
        done,
      ),
    );

  it("refuses a service account without ratelimit.check burning globex's counters, which stay whole", async () => {
    const victim = fresh();

    const burn = await check(scraper, GLOBEX, victim, 1_000_000);

    expect(burn.error?.code).toBe(grpc.status.PERMISSION_DENIED);
    const after = await check(gateway, GLOBEX, victim);
    expect(after.error).toBeNull();
    expect(after.response.statuses[0]).toMatchObject({ code: 'OK', limit_remaining: 2 });
  });

  it("refuses a service account without flags.read reading globex's flags", async () => {
    const { error, response } = await evaluate(scraper, GLOBEX);

    expect(error?.code).toBe(grpc.status.PERMISSION_DENIED);
    expect(response).toBeUndefined();
  });

  it('refuses an app bound to acme naming globex, and serves it in acme', async () => {
    expect((await check(acmeGateway, GLOBEX, fresh(), 3)).error?.code).toBe(grpc.status.PERMISSION_DENIED);
    expect((await evaluate(acmeGateway, GLOBEX)).error?.code).toBe(grpc.status.PERMISSION_DENIED);

    expect((await check(acmeGateway, '', fresh())).response.statuses[0]).toMatchObject({
      limit_remaining: 2,
    });
    expect((await evaluate(acmeGateway, '')).response.value).toMatchObject({ string_value: `${ACME}-plan` });
  });

  it('refuses a user of acme naming globex, and serves it in acme', async () => {
    expect((await check(acmeUser, GLOBEX, fresh(), 3)).error?.code).toBe(grpc.status.PERMISSION_DENIED);
    expect((await evaluate(acmeUser, GLOBEX)).error?.code).toBe(grpc.status.PERMISSION_DENIED);

    expect((await check(acmeUser, '', fresh())).response.statuses[0]).toMatchObject({ limit_remaining: 2 });
    expect((await evaluate(acmeUser, ACME)).response.value).toMatchObject({ string_value: `${ACME}-plan` });
  });

  it('lets an app bound to no tenant that holds the scopes name the tenant it serves', async () => {
    expect((await check(gateway, GLOBEX, fresh())).response.statuses[0]).toMatchObject({
      limit_remaining: 2,
    });
    expect((await evaluate(gateway, GLOBEX)).response.value).toMatchObject({
      string_value: `${GLOBEX}-plan`,
    });
    expect((await evaluate(gateway, '')).error?.code).toBe(grpc.status.INVALID_ARGUMENT);
  });
});
