import * as client from 'openid-client';
import { decodeJwt } from 'jose';
import { adminToken, discover, postForm, registerApp, type RegisteredApp } from '../../support/oauth';
import { sharedPlatform, type TestPlatform } from '../../support/platform';
import { introspectAsAdmin, meStatus, signIn, untilRejected } from '../../support/internal-consent';

/** Its own apps on the shared platform; its user is TEST_IDENTITY, claims unchanged. */
describe('POST /v1/oauth/token (refresh_token)', () => {
  let platform: TestPlatform;
  let admin: string;
  let dashboard: RegisteredApp;
  let portal: RegisteredApp;

  beforeAll(async () => {
    platform = sharedPlatform();
    admin = await adminToken(await discover(platform), platform);
    dashboard = await registerApp(platform, admin, {
      client_id: 'rotation-dashboard',
      app_type: 'spa',
      declared_scopes: ['jobs.*'],
      redirect_uris: ['https://dashboard.example.test/rotation/callback'],
    });
    portal = await registerApp(platform, admin, {
      client_id: 'rotation-portal',
      app_type: 'web',
      declared_scopes: ['jobs.read'],
      redirect_uris: ['https://portal.example.test/rotation/callback'],
    });
  });

  const refreshForm = (refreshToken: string) =>
    postForm(`${platform.baseUrl}/v1/oauth/token`, {
      grant_type: 'refresh_token',
      client_id: 'rotation-dashboard',
      refresh_token: refreshToken,
    });

  it('swaps a refresh token for a new access token and a new refresh token of the same grant', async () => {
    const { config, tokens, user } = await signIn(platform, dashboard, { scope: 'jobs.read jobs.write' });
    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed).toMatchObject({ expires_in: 3600, scope: 'jobs.read jobs.write' });
    expect(refreshed.refresh_token).toEqual(expect.any(String));
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect(decodeJwt(refreshed.access_token)).toMatchObject({
      sub: user.id,
      tenant: 'acme',
      roles: ['tenant_admin', 'viewer'],
      grant_id: decodeJwt(tokens.access_token).grant_id,
    });
    expect(await meStatus(platform, refreshed.access_token)).toBe(200);
    expect(await introspectAsAdmin(platform, tokens.refresh_token!)).toEqual({ active: false });
    expect(await introspectAsAdmin(platform, refreshed.refresh_token!)).toMatchObject({
      active: true,
      token_type: 'refresh_token',
      sub: user.id,
    });
  });

  it('narrows the scope of the access token when asked, and refuses to widen it', async () => {
    const { config, tokens } = await signIn(platform, dashboard, { scope: 'jobs.read jobs.write' });
    const narrowed = await client.refreshTokenGrant(config, tokens.refresh_token!, { scope: 'jobs.read' });
    expect(narrowed.scope).toBe('jobs.read');
    const widened = await client
      .refreshTokenGrant(config, narrowed.refresh_token!, { scope: 'jobs.read jobs.*' })
      .catch((e: unknown) => e);
    expect(widened).toMatchObject({ status: 400, error: 'invalid_scope' });
  });

  it('revokes the whole family when a rotated refresh token comes back', async () => {
    const { config, tokens } = await signIn(platform, dashboard);
    const second = await client.refreshTokenGrant(config, tokens.refresh_token!);

    const replay = await client.refreshTokenGrant(config, tokens.refresh_token!).catch((e: unknown) => e);
    expect(replay).toBeInstanceOf(client.ResponseBodyError);
    expect(replay).toMatchObject({ status: 400, error: 'invalid_grant' });

    const newest = await refreshForm(second.refresh_token!);
    expect(newest.status).toBe(400);
    expect(await newest.json()).toMatchObject({ error: 'invalid_grant' });
    await untilRejected(platform, second.access_token);
    expect(await meStatus(platform, tokens.access_token)).toBe(401);
  });

  it('lets exactly one of two concurrent refreshes with the same token through', async () => {
    const { tokens } = await signIn(platform, dashboard);
    const responses = await Promise.all([
      refreshForm(tokens.refresh_token!),
      refreshForm(tokens.refresh_token!),
    ]);
    expect(responses.map((r) => r.status).sort()).toEqual([200, 400]);
    const loser = responses.find((r) => r.status === 400)!;
    expect(await loser.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('revokes a refresh token by RFC 7009: it no longer refreshes and its access token is refused', async () => {
    const { config, tokens } = await signIn(platform, portal);
    expect(await meStatus(platform, tokens.access_token)).toBe(200);
    await client.tokenRevocation(config, tokens.refresh_token!);
    expect(await meStatus(platform, tokens.access_token)).toBe(401);
    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!).catch((e: unknown) => e);
    expect(refreshed).toMatchObject({ status: 400, error: 'invalid_grant' });
  });

  it('refuses a web app refreshing with its client_id alone: 401 invalid_client; its secret refreshes', async () => {
    const { config, tokens } = await signIn(platform, portal);
    const idOnly = await postForm(`${platform.baseUrl}/v1/oauth/token`, {
      grant_type: 'refresh_token',
      client_id: portal.client_id,
      refresh_token: tokens.refresh_token!,
    });
    expect(idOnly.status).toBe(401);
    expect(await idOnly.json()).toMatchObject({ error: 'invalid_client' });
    await expect(client.refreshTokenGrant(config, tokens.refresh_token!)).resolves.toMatchObject({
      refresh_token: expect.any(String),
    });
  });

  it("kills an app's refresh tokens when the app is deleted", async () => {
    const doomed = await registerApp(platform, admin, {
      client_id: 'rotation-doomed-spa',
      app_type: 'spa',
      declared_scopes: ['jobs.read'],
      redirect_uris: ['https://doomed.example.test/rotation/callback'],
    });
    const { tokens } = await signIn(platform, doomed);
    expect(await introspectAsAdmin(platform, tokens.refresh_token!)).toMatchObject({ active: true });

    const deleted = await fetch(`${platform.baseUrl}/v1/oauth/apps/rotation-doomed-spa`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(deleted.status).toBe(204);

    expect(await introspectAsAdmin(platform, tokens.refresh_token!)).toEqual({ active: false });
    expect(await meStatus(platform, tokens.access_token)).toBe(401);
    const refreshed = await postForm(`${platform.baseUrl}/v1/oauth/token`, {
      grant_type: 'refresh_token',
      client_id: 'rotation-doomed-spa',
      refresh_token: tokens.refresh_token!,
    });
    expect(refreshed.status).toBe(401);
    expect(await refreshed.json()).toMatchObject({ error: 'invalid_client' });
  });
});
