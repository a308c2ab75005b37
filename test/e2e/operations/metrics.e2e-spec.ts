import {
  adminToken,
  basic,
  clientCredentialsToken,
  discover,
  postForm,
  registerApp,
} from '../../support/oauth';
import { startPlatform, type TestPlatform } from '../../support/platform';
import { createScratchDatabase, describeOnPostgres, type ScratchDatabase } from '../../support/postgres';

/** The value of one sample of the Prometheus text format, 0 when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (wanted.every((pair) => line.includes(pair))) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return 0;
}

/** `# TYPE name kind` of every platform metric. */
function types(text: string): Array<[string, string]> {
  return [...text.matchAll(/^# TYPE (platform_\w+) (\w+)$/gm)].map((m) => [m[1], m[2]]);
}

describe('Prometheus metrics of the three processes', () => {
  let platform: TestPlatform;
  const scrape = async (url: string) => {
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return response.text();
  };
  const backend = () => scrape(`http://127.0.0.1:${platform.env.BACKEND_METRICS_PORT}/metrics`);
  const controlPlane = () => scrape(`${platform.controlPlaneUrl}/metrics`);
  const sidecar = () => scrape(`http://127.0.0.1:${platform.env.SIDECAR_HEALTH_PORT}/metrics`);

  beforeAll(async () => {
    platform = await startPlatform();
  });
  afterAll(async () => platform?.stop());

  it('moves the counters of a token request, a refusal and a protected request', async () => {
    const as = await discover(platform);
    const app = await registerApp(platform, await adminToken(as, platform), { client_id: 'metered' });
    const [cpBefore, backendBefore, sidecarBefore] = await Promise.all([
      controlPlane(),
      backend(),
      sidecar(),
    ]);

    const token = (
      await clientCredentialsToken(as, { clientId: app.client_id, clientSecret: app.client_secret! })
    ).access_token;
    const refused = await postForm(
      `${platform.baseUrl}/v1/oauth/token`,
      { grant_type: 'client_credentials' },
      { authorization: basic(app.client_id, 'wrong') },
    );
    expect(refused.status).toBe(401);
    const me = async (bearer: string) =>
      (await fetch(`${platform.baseUrl}/v1/me`, { headers: { authorization: `Bearer ${bearer}` } })).status;
    // A new token (judged by the backend itself), the same again (its cache), and a forged one
    // (left to the sidecar, which refuses it).
    expect(await me(token)).toBe(200);
    expect(await me(token)).toBe(200);
    expect(await me(`${token.slice(0, token.lastIndexOf('.'))}.${'A'.repeat(342)}`)).toBe(401);
    const [cpAfter, backendAfter, sidecarAfter] = await Promise.all([controlPlane(), backend(), sidecar()]);

    const moved = (before: string, after: string, name: string, labels: Record<string, string> = {}) =>
      sample(after, name, labels) - sample(before, name, labels);
    expect(
      moved(cpBefore, cpAfter, 'platform_tokens_issued_total', { grant_type: 'client_credentials' }),
    ).toBe(1);
    expect(
      moved(cpBefore, cpAfter, 'platform_token_requests_refused_total', { error: 'invalid_client' }),
    ).toBe(1);
    expect(
      moved(backendBefore, backendAfter, 'platform_http_request_duration_seconds_count', {
        method: 'POST',
        route: '/v1/oauth/token',
        status: '200',
      }),
    ).toBe(1);
    expect(
      moved(backendBefore, backendAfter, 'platform_validation_cache_lookups_total', { result: 'miss' }),
    ).toBe(2);
    expect(
      moved(backendBefore, backendAfter, 'platform_validation_cache_lookups_total', { result: 'hit' }),
    ).toBe(1);
    expect(
      moved(sidecarBefore, sidecarAfter, 'platform_grpc_call_duration_seconds_count', {
        method: 'AuthService/ValidateToken',
        code: 'UNAUTHENTICATED',
      }),
    ).toBe(1);
    expect(
      moved(sidecarBefore, sidecarAfter, 'platform_grpc_call_duration_seconds_count', {
        method: 'AuthService/ValidateToken',
        code: 'OK',
      }),
    ).toBe(0);
    expect(sample(sidecarAfter, 'platform_deny_list_entries')).toBeGreaterThanOrEqual(0);
    expect(sidecarAfter).toMatch(/^process_cpu_seconds_total /m);
  });

  it('names every metric by the Prometheus conventions, with bounded labels', async () => {
    for (const text of await Promise.all([backend(), controlPlane(), sidecar()])) {
      for (const [name, kind] of types(text)) {
        if (kind === 'counter') expect(name).toMatch(/_total$/);
        if (kind === 'histogram') expect(name).toMatch(/_seconds$/);
      }
      // Route patterns, never URLs with ids in them.
      expect(text).not.toMatch(/route="[^"]*\/(wh_|metered)/);
    }
  });

  it('keeps metrics off the public port', async () => {
    expect((await fetch(`${platform.baseUrl}/metrics`)).status).toBe(404);
  });
});

describeOnPostgres('Postgres pool metrics of the control plane', () => {
  let platform: TestPlatform;
  let database: ScratchDatabase;
  beforeAll(async () => {
    database = await createScratchDatabase();
    platform = await startPlatform({ databaseUrl: database.url });
  });
  afterAll(async () => {
    await platform?.stop();
    await database?.drop();
  });

  it('shows the connections the pool holds, idle and waited for', async () => {
    const text = await (await fetch(`${platform.controlPlaneUrl}/metrics`)).text();
    expect(sample(text, 'platform_db_pool_connections')).toBeGreaterThanOrEqual(1);
    expect(text).toMatch(/^platform_db_pool_idle_connections \d+$/m);
    expect(text).toMatch(/^platform_db_pool_waiting_requests \d+$/m);
  });
});
