import { randomBytes } from 'node:crypto';
import { decodeJwt } from 'jose';
import type * as oauth from 'oauth4webapi';
import type {
  EntitlementsDto,
  PlanDto,
  QuotaUsageDto,
  RegisteredWebhookDto,
  SubscriptionDto,
} from '@platform/contract';
import { adminToken, clientCredentialsToken, discover, postForm, registerApp } from '../../support/oauth';
import { sharedPlatform, type TestPlatform } from '../../support/platform';
import { WebhookReceiver } from '../../support/webhook-receiver';

/**
 * Plans, subscriptions, entitlements and the platform's own `tokens_issued` meter through the
 * built processes (docs/plans.md), on the shared platform: the plans and the tenant are this
 * file's own.
 */
describe('plans and quotas over REST', () => {
  const platform: TestPlatform = sharedPlatform();
  const suffix = randomBytes(4).toString('hex');
  const tenant = `plans-${suffix}`;
  const otherTenant = `plans-other-${suffix}`;
  const plan = `team-${suffix}`;
  let as: oauth.AuthorizationServer;
  let admin: string;
  const receiver = new WebhookReceiver();

  const api = async (method: string, path: string, token: string, body?: unknown) => {
    const response = await fetch(`${platform.baseUrl}/api/v1${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body !== undefined && { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
  };
  const serviceToken = async (clientId: string, appTenant: string, scopes: string[]) => {
    const app = await registerApp(platform, admin, {
      client_id: clientId,
      tenant: appTenant,
      declared_scopes: scopes,
    });
    const token = await clientCredentialsToken(as, { clientId, clientSecret: app.client_secret! });
    return { app, token: token.access_token };
  };

  /** A plan of these quotas, in force for `planTenant` since the start of 2026. */
  const subscribe = async (planTenant: string, planName: string, quotas: object) => {
    expect((await api('PUT', `/plans/${planName}`, admin, { quotas })).status).toBe(200);
    const assign = { assignments: [{ plan: planName, from: '2026-01-01T00:00:00Z' }] };
    expect((await api('PUT', `/tenants/${planTenant}/subscription`, admin, assign)).status).toBe(200);
  };

  beforeAll(async () => {
    as = await discover(platform);
    admin = await adminToken(as, platform);
  });
  afterAll(() => receiver.stop());

  it('keeps plans as platform administrators write them, refusing a document it cannot read with where', async () => {
    const bad = await api('PUT', `/plans/${plan}`, admin, {
      quotas: { tokens_issued: { limit: 5, period: 'week' } },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toBe('/quotas/tokens_issued/period: one of hour, day, month');

    const put = await api('PUT', `/plans/${plan}`, admin, {
      description: 'Team',
      features: { sso: true, seats: 10, support: 'business' },
      quotas: { tokens_issued: { limit: 3, period: 'month' } },
    });
    expect(put.status).toBe(200);
    expect(put.body as PlanDto).toMatchObject({
      name: plan,
      description: 'Team',
      features: { sso: true, seats: 10, support: 'business' },
      quotas: { tokens_issued: { limit: 3, period: 'month', enforcement: 'hard', thresholds: [80, 100] } },
      version: 1,
    });
    expect((await api('GET', `/plans/${plan}`, admin)).body).toEqual(put.body);
    expect(((await api('GET', '/plans', admin)).body as PlanDto[]).map((p) => p.name)).toContain(plan);
    expect((await api('GET', `/plans/none-${suffix}`, admin)).status).toBe(404);
  });

  it('assigns a plan to a tenant, refusing a plan that does not exist, and says what the tenant is entitled to', async () => {
    const unknown = await api('PUT', `/tenants/${tenant}/subscription`, admin, {
      assignments: [{ plan: `none-${suffix}`, from: '2026-01-01T00:00:00Z' }],
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.detail).toBe(`/assignments/0/plan: there is no plan none-${suffix}`);

    const put = await api('PUT', `/tenants/${tenant}/subscription`, admin, {
      zone: 'Europe/Paris',
      assignments: [{ plan, from: '2026-01-01T00:00:00Z' }],
      overrides: [
        { reason: 'add-on', features: { seats: 25 } },
        { reason: 'ended trial', features: { beta: true }, until: '2026-02-01T00:00:00Z' },
      ],
    });
    expect(put.status).toBe(200);
    expect(put.body as SubscriptionDto).toMatchObject({ tenant, zone: 'Europe/Paris', version: 1 });

    const { token } = await serviceToken(`plans-reader-${suffix}`, tenant, [
      'entitlements.read',
      'quotas.read',
    ]);
    // Entitlements do not travel in tokens (docs/plans.md): a token outlives a plan change.
    const claims = decodeJwt(token);
    expect(Object.keys(claims).filter((claim) => /plan|entitle|feature|quota/.test(claim))).toEqual([]);
    const entitlements = await api('GET', `/tenants/${tenant}/entitlements`, token);
    expect(entitlements.status).toBe(200);
    expect(entitlements.body as EntitlementsDto).toEqual({
      tenant,
      plan,
      zone: 'Europe/Paris',
      features: { sso: true, seats: 25, support: 'business' },
      quotas: { tokens_issued: { limit: 3, period: 'month', enforcement: 'hard', thresholds: [80, 100] } },
    });
  });

  it('refuses another tenant’s app, an app without the scope, a tenant admin’s subscription change', async () => {
    const other = await serviceToken(`plans-other-${suffix}`, otherTenant, [
      'entitlements.read',
      'quotas.read',
    ]);
    expect((await api('GET', `/tenants/${tenant}/entitlements`, other.token)).status).toBe(403);
    expect((await api('GET', `/tenants/${tenant}/quotas`, other.token)).status).toBe(403);
    const unscoped = await serviceToken(`plans-unscoped-${suffix}`, tenant, ['jobs.read']);
    expect((await api('GET', `/tenants/${tenant}/entitlements`, unscoped.token)).status).toBe(403);
    expect((await api('GET', `/tenants/${tenant}/quotas`, unscoped.token)).status).toBe(403);
    // Plans and subscriptions are the platform administrator's: any app token is refused.
    expect(
      (await api('PUT', `/tenants/${tenant}/subscription`, other.token, { assignments: [] })).status,
    ).toBe(403);
    expect((await api('PUT', `/plans/${plan}`, unscoped.token, {})).status).toBe(403);
    expect((await fetch(`${platform.baseUrl}/api/v1/plans`)).status).toBe(401);
  });

  it('counts tokens issued to the tenant’s apps: past the hard quota the token endpoint answers 429, thresholds notify once', async () => {
    const hooks = await receiver.start();
    const webhook = await api('POST', '/webhooks', admin, { url: hooks, event_types: ['quota.*'], tenant });
    expect(webhook.status).toBe(201);
    receiver.secrets.push((webhook.body as RegisteredWebhookDto).secret);

    // The tokens of the tenant's reader and unscoped apps above counted: 2 of 3.
    const before = (await api('GET', `/tenants/${tenant}/quotas`, admin)).body as QuotaUsageDto[];
    expect(before).toEqual([expect.objectContaining({ meter: 'tokens_issued', used: 2, remaining: 1 })]);
    // A refused request gives its unit back.
    const app = await registerApp(platform, admin, {
      client_id: `plans-metered-${suffix}`,
      tenant,
      declared_scopes: ['jobs.read'],
    });
    const form = (scope: string) => ({
      grant_type: 'client_credentials',
      client_id: app.client_id,
      client_secret: app.client_secret!,
      scope,
    });
    expect((await postForm(`${platform.baseUrl}/v1/oauth/token`, form('files.write'))).status).toBe(400);
    expect((await postForm(`${platform.baseUrl}/v1/oauth/token`, form('jobs.read'))).status).toBe(200);

    const refused = await postForm(`${platform.baseUrl}/v1/oauth/token`, form('jobs.read'));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.headers.get('cache-control')).toBe('no-store');
    const body = (await refused.json()) as { error: string; error_description: string };
    expect(body.error).toBe('temporarily_unavailable');
    expect(body.error_description).toMatch(
      new RegExp(`^the tokens_issued quota of tenant ${tenant} \\(3 per month\\) is used up until `),
    );
    // Other tenants' apps are not concerned.
    const outsider = await serviceToken(`plans-outsider-${suffix}`, otherTenant, ['jobs.read']);
    expect(outsider.token).toBeTruthy();

    const reader = await serviceToken(`plans-usage-${suffix}`, otherTenant, ['quotas.read']);
    expect((await api('GET', `/tenants/${tenant}/quotas`, reader.token)).status).toBe(403);
    const usage = await api('GET', `/tenants/${tenant}/quotas`, admin);
    expect(usage.status).toBe(200);
    const [tokens] = usage.body as QuotaUsageDto[];
    expect(tokens).toMatchObject({
      meter: 'tokens_issued',
      limit: 3,
      used: 3,
      remaining: 0,
      period: 'month',
      enforcement: 'hard',
    });
    // Europe/Paris months start at its midnight: 23:00 or 22:00 UTC the day before.
    expect(tokens.period_start).toMatch(/T2[23]:00:00\.000Z$/);

    const received = await receiver.waitFor(
      (r) => r.filter((w) => w.message.type === 'quota.threshold_reached').length >= 2,
    );
    const thresholds = received.filter((w) => w.message.type === 'quota.threshold_reached');
    expect(thresholds.map((w) => w.message.data.attributes.threshold).sort()).toEqual(['100', '80']);
    expect(
      thresholds.every((w) => w.message.data.tenant === tenant && w.message.data.target === 'tokens_issued'),
    ).toBe(true);
    expect(thresholds.every((w) => w.verifiedWith.length === 1)).toBe(true);

    const history = await api('GET', `/tenants/${tenant}/quotas/tokens_issued/usage?limit=5`, admin);
    expect(history.status).toBe(200);
    expect(history.body).toEqual([expect.objectContaining({ used: 3, limit: 3, notified: [80, 100] })]);
    expect((await api('GET', `/tenants/${tenant}/quotas/Bad%20Meter/usage`, admin)).status).toBe(400);

    // Raising the plan's limit lets the tenant on at once, the window's count kept; no new notice.
    expect(
      (
        await api('PUT', `/plans/${plan}`, admin, {
          quotas: { tokens_issued: { limit: 100, period: 'month' } },
        })
      ).status,
    ).toBe(200);
    let issued = 0;
    for (let attempt = 0; attempt < 20 && issued === 0; attempt++) {
      const response = await postForm(`${platform.baseUrl}/v1/oauth/token`, form('jobs.read'));
      if (response.status === 200) issued++;
      else await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(issued).toBe(1);
    expect(((await api('GET', `/tenants/${tenant}/quotas`, admin)).body as QuotaUsageDto[])[0]).toMatchObject(
      { used: 4, limit: 100 },
    );
  });

  it('counts new jobs against jobs_submitted: a resubmission with its key counts nothing, past the quota 429', async () => {
    const jobsPlan = `jobs-${suffix}`;
    const jobsTenant = `plans-jobs-${suffix}`;
    await subscribe(jobsTenant, jobsPlan, { jobs_submitted: { limit: 2, period: 'day' } });
    const { token } = await serviceToken(`plans-submitter-${suffix}`, jobsTenant, ['jobs.write']);
    const submit = (key: string) =>
      api('POST', `/tenants/${jobsTenant}/jobs`, token, { type: 'report', idempotency_key: key });
    // The plan reaches this control plane through its definitions feed.
    expect((await submit('first')).status).toBe(201);
    expect((await submit('first')).status).toBe(200);
    expect((await submit('second')).status).toBe(201);
    const refused = await submit('third');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.body.detail).toMatch(
      new RegExp(`^the jobs_submitted quota of tenant ${jobsTenant} \\(2 per day\\) is used up until `),
    );
    // In a batch, each submission past the quota is refused alone; a key already counted is not.
    const batch = await api('POST', `/tenants/${jobsTenant}/jobs/batch`, token, {
      jobs: [
        { type: 'report', idempotency_key: 'first' },
        { type: 'report', idempotency_key: 'fourth' },
      ],
    });
    expect(batch.status).toBe(200);
    const [again, past] = batch.body.results as Array<{ created?: boolean; refused?: { status: number } }>;
    expect(again.created).toBe(false);
    expect(past.refused?.status).toBe(429);
    // The refused jobs were not queued.
    const jobs = await api('GET', `/tenants/${jobsTenant}/jobs`, admin);
    expect((jobs.body.jobs as unknown[]).length).toBe(2);
  });

  it('counts secret values stored against secrets_stored: a refused write gives its unit back, past the quota 429', async () => {
    const secretsPlan = `secrets-${suffix}`;
    const secretsTenant = `plans-secrets-${suffix}`;
    await subscribe(secretsTenant, secretsPlan, { secrets_stored: { limit: 2, period: 'month' } });
    const { token } = await serviceToken(`plans-keeper-${suffix}`, secretsTenant, [
      'secrets.write',
      'quotas.read',
    ]);
    const write = (name: string, body: object) =>
      api('PUT', `/tenants/${secretsTenant}/secrets/${name}`, token, body);
    expect((await write('db', { value: 'one', cas: 0 })).status).toBe(200);
    // Check-and-set lost: nothing stored, nothing counted.
    expect((await write('db', { value: 'again', cas: 0 })).status).toBe(409);
    expect((await write('db', { value: 'two' })).status).toBe(200);
    const refused = await write('api', { value: 'three' });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.body.detail).toMatch(
      new RegExp(`^the secrets_stored quota of tenant ${secretsTenant} \\(2 per month\\) is used up until `),
    );
    const usage = await api('GET', `/tenants/${secretsTenant}/quotas`, token);
    expect(usage.body).toEqual([
      expect.objectContaining({ meter: 'secrets_stored', used: 2, limit: 2, remaining: 0 }),
    ]);
    // The refused value was not stored.
    expect((await api('GET', `/tenants/${secretsTenant}/secrets/api/metadata`, admin)).status).toBe(404);
  });

  it('counts the tenant’s API calls against api_calls: past the hard quota 429 with Retry-After', async () => {
    const callsPlan = `calls-${suffix}`;
    const callsTenant = `plans-calls-${suffix}`;
    await subscribe(callsTenant, callsPlan, { api_calls: { limit: 2, period: 'hour' } });
    const { token } = await serviceToken(`plans-caller-${suffix}`, callsTenant, ['entitlements.read']);
    expect((await api('GET', `/tenants/${callsTenant}/entitlements`, token)).status).toBe(200);
    expect((await api('GET', `/tenants/${callsTenant}/entitlements`, token)).status).toBe(200);
    const refused = await api('GET', `/tenants/${callsTenant}/entitlements`, token);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.body.detail).toMatch(
      new RegExp(`^the api_calls quota of tenant ${callsTenant} \\(2 per hour\\)`),
    );
    // Administration is the platform's, not the tenant's: never counted, never refused.
    expect((await api('GET', `/tenants/${callsTenant}/subscription`, admin)).status).toBe(200);
  });

  it('audits plan and subscription changes', async () => {
    const records = await api(
      'GET',
      `/audit/records?action=subscription.changed&target=subscription&tenant=${tenant}`,
      admin,
    );
    expect(records.status).toBe(200);
    expect(records.body.records).toEqual([
      expect.objectContaining({ action: 'subscription.changed', tenant }),
    ]);
    const plans = await api('GET', `/audit/records?action=plan.changed&target=${plan}`, admin);
    expect(plans.body.records.length).toBeGreaterThanOrEqual(2);
    expect(plans.body.records.every((r: { tenant: string | null }) => r.tenant === null)).toBe(true);
  });
});
