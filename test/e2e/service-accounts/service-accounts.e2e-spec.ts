import { PlatformClient, ServiceTokenSource } from '@platform/sdk';
import { adminToken, clientCredentialsToken, discover, postForm, registerApp } from '../../support/oauth';
import { sharedPlatform, type TestPlatform } from '../../support/platform';

interface ServiceAccount {
  client_id: string;
  client_secret: string;
  name: string;
  declared_scopes: string[];
  app_type: string;
  created_at: string;
}

describe('POST /api/v1/apps/register and /api/v1/apps/{app_id}/credentials/rotate', () => {
  let platform: TestPlatform;
  let admin: string;

  beforeAll(async () => {
    platform = sharedPlatform();
    admin = await adminToken(await discover(platform), platform);
  });

  /** `null`: no Authorization header at all. */
  const register = (body: unknown, token: string | null = admin) =>
    fetch(`${platform.baseUrl}/api/v1/apps/register`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(token !== null && { authorization: `Bearer ${token}` }),
      },
      body: JSON.stringify(body),
    });
  const rotate = (appId: string, token: string | null = admin) =>
    fetch(`${platform.baseUrl}/api/v1/apps/${encodeURIComponent(appId)}/credentials/rotate`, {
      method: 'POST',
      headers: token === null ? {} : { authorization: `Bearer ${token}` },
    });
  const tokenStatus = async (clientId: string, clientSecret: string) =>
    (
      await postForm(`${platform.baseUrl}/api/v1/auth/token`, {
        grant_type: 'client_credentials',
        client_id: clientId,
        client_secret: clientSecret,
      })
    ).status;

  it('registers a service account under a generated client_id and shows its secret once', async () => {
    const response = await register({
      name: 'Nightly Reports',
      declared_scopes: ['jobs.read', 'files.read'],
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const account = (await response.json()) as ServiceAccount;
    expect(account).toEqual({
      client_id: expect.stringMatching(/^svc-nightly-reports-[0-9a-f]{6}$/),
      client_secret: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      name: 'Nightly Reports',
      declared_scopes: ['jobs.read', 'files.read'],
      app_type: 'service',
      created_at: expect.any(String),
    });
    const listed = await fetch(`${platform.baseUrl}/v1/oauth/apps/${account.client_id}`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(await listed.json()).not.toHaveProperty('client_secret');
  });

  it('gives the account a token with the SDK, acting as the app', async () => {
    const account = (await (
      await register({ name: 'cron job', declared_scopes: ['jobs.read'] })
    ).json()) as ServiceAccount;
    const tokens = new ServiceTokenSource({
      baseUrl: platform.baseUrl,
      clientId: account.client_id,
      clientSecret: account.client_secret,
    });
    const client = new PlatformClient({ baseUrl: platform.baseUrl, tokens });
    await expect(client.me()).resolves.toMatchObject({
      sub: account.client_id,
      client_id: account.client_id,
      scope: 'jobs.read',
    });
  });

  it('declares no scope by default: the account proves who it is and may do nothing', async () => {
    const response = await register({ name: 'probe' });
    expect(response.status).toBe(201);
    const account = (await response.json()) as ServiceAccount;
    expect(account.declared_scopes).toEqual([]);
    const token = await clientCredentialsToken(await discover(platform), {
      clientId: account.client_id,
      clientSecret: account.client_secret,
    });
    expect(token.scope ?? '').toBe('');
    const validation = await fetch(
      `${platform.baseUrl}/api/v1/auth/validate?token=${encodeURIComponent(token.access_token)}`,
    );
    expect(await validation.json()).toMatchObject({ active: true, client_id: account.client_id, scope: '' });
  });

  it('keeps POST /v1/oauth/apps as it was: at least one declared scope', async () => {
    const response = await fetch(`${platform.baseUrl}/v1/oauth/apps`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: 'no-scopes', name: 'x', app_type: 'service', declared_scopes: [] }),
    });
    expect(response.status).toBe(400);
  });

  it('refuses an undefined scope, a missing name, and a body that is not JSON', async () => {
    expect((await register({ name: 'x', declared_scopes: ['nothing.defined'] })).status).toBe(400);
    expect((await register({ declared_scopes: ['jobs.read'] })).status).toBe(400);
    const form = await fetch(`${platform.baseUrl}/api/v1/apps/register`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'name=x',
    });
    expect(form.status).toBe(415);
  });

  it('rotates the secret: the new one works, the old one stops at once', async () => {
    const account = (await (
      await register({ name: 'rotating', declared_scopes: ['jobs.read'] })
    ).json()) as ServiceAccount;
    const response = await rotate(account.client_id);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const rotated = (await response.json()) as {
      client_id: string;
      client_secret: string;
      rotated_at: string;
    };
    expect(rotated).toEqual({
      client_id: account.client_id,
      client_secret: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      rotated_at: expect.any(String),
    });
    await expect(tokenStatus(account.client_id, account.client_secret)).resolves.toBe(401);
    await expect(tokenStatus(account.client_id, rotated.client_secret)).resolves.toBe(200);
  });

  it('answers 404 for an unknown app', async () => {
    expect((await rotate('svc-nobody-000000')).status).toBe(404);
  });

  it('needs an admin token: 401 without one, 403 with a token that is not admin', async () => {
    const worker = await registerApp(platform, admin, {
      client_id: 'plain-worker',
      declared_scopes: ['jobs.read'],
    });
    const workerToken = (
      await clientCredentialsToken(await discover(platform), {
        clientId: worker.client_id,
        clientSecret: worker.client_secret!,
      })
    ).access_token;
    expect((await register({ name: 'x' }, null)).status).toBe(401);
    const forbidden = await register({ name: 'x' }, workerToken);
    expect(forbidden.status).toBe(403);
    expect(await forbidden.json()).toMatchObject({ error: 'insufficient_scope' });
    expect((await rotate(worker.client_id, workerToken)).status).toBe(403);
    expect((await rotate(worker.client_id, null)).status).toBe(401);
  });
});
