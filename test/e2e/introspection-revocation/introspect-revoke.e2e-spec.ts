import type * as oauth from 'oauth4webapi';
import {
  adminToken,
  basic,
  clientCredentialsToken,
  discover,
  postForm,
  registerApp,
  type RegisteredApp,
} from '../../support/oauth';
import { sharedPlatform, type TestPlatform } from '../../support/platform';
import { signWithPlatformKey, tamper, unsecuredJwt } from '../../support/tokens';

describe('POST /v1/oauth/introspect and /v1/oauth/revoke', () => {
  let platform: TestPlatform;
  let as: oauth.AuthorizationServer;
  let owner: RegisteredApp;
  let stranger: RegisteredApp;
  let resourceServer: RegisteredApp;

  beforeAll(async () => {
    platform = sharedPlatform();
    as = await discover(platform);
    const admin = await adminToken(as, platform);
    owner = await registerApp(platform, admin, { client_id: 'owner-app', declared_scopes: ['jobs.read'] });
    stranger = await registerApp(platform, admin, { client_id: 'stranger-app' });
    resourceServer = await registerApp(platform, admin, {
      client_id: 'api-gateway',
      declared_scopes: ['tokens.introspect'],
    });
  });

  const credentialsOf = (app: RegisteredApp) => ({
    clientId: app.client_id,
    clientSecret: app.client_secret!,
  });
  const issue = async () => (await clientCredentialsToken(as, credentialsOf(owner))).access_token;
  const introspect = (token: string, app: RegisteredApp) =>
    postForm(`${platform.baseUrl}/v1/oauth/introspect`, {
      token,
      client_id: app.client_id,
      client_secret: app.client_secret!,
    });
  const revoke = (token: string, app: RegisteredApp) =>
    postForm(`${platform.baseUrl}/v1/oauth/revoke`, {
      token,
      client_id: app.client_id,
      client_secret: app.client_secret!,
    });
  const me = (token: string) =>
    fetch(`${platform.baseUrl}/v1/me`, { headers: { authorization: `Bearer ${token}` } });

  it('shows the owner the full RFC 7662 form of an active token', async () => {
    const token = await issue();
    const response = await introspect(token, owner);
    expect(response.status).toBe(200);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      active: true,
      client_id: 'owner-app',
      scope: 'jobs.read',
      sub: 'owner-app',
      iss: platform.baseUrl,
      aud: platform.baseUrl,
      jti: expect.any(String),
    });
    expect(Number(body.exp) - Number(body.iat)).toBe(3600);
  });

  it('shows another app only {"active":false}, and a tokens.introspect resource server the token', async () => {
    const token = await issue();
    expect(await (await introspect(token, stranger)).json()).toEqual({ active: false });
    expect(await (await introspect(token, resourceServer)).json()).toMatchObject({
      active: true,
      client_id: 'owner-app',
    });
  });

  it('answers expired, tampered, alg:none and garbage tokens with exactly {"active":false}', async () => {
    const now = Math.floor(Date.now() / 1000);
    const expired = await signWithPlatformKey(platform, {
      iss: platform.baseUrl,
      aud: platform.baseUrl,
      sub: 'owner-app',
      client_id: 'owner-app',
      scope: 'jobs.read',
      jti: 'expired-1',
      iat: now - 7200,
      exp: now - 3600,
    });
    const tampered = tamper(await issue(), { scope: 'admin.*' });
    const none = unsecuredJwt({
      iss: platform.baseUrl,
      aud: platform.baseUrl,
      sub: 'owner-app',
      client_id: 'owner-app',
      jti: 'n',
      iat: now,
      exp: now + 60,
    });
    for (const token of [expired, tampered, none, 'garbage']) {
      const response = await introspect(token, owner);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ active: false });
    }
  });

  it('refuses introspection with a wrong secret (401 invalid_client) and without a token (400 invalid_request)', async () => {
    const wrong = await postForm(`${platform.baseUrl}/v1/oauth/introspect`, {
      token: 'x',
      client_id: owner.client_id,
      client_secret: 'nope',
    });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({ error: 'invalid_client' });
    const missing = await postForm(
      `${platform.baseUrl}/v1/oauth/introspect`,
      {},
      { authorization: basic(owner.client_id, owner.client_secret!) },
    );
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ error: 'invalid_request' });
  });

  it('revokes a token: 200, then introspection is inactive and the backend rejects it at once', async () => {
    const token = await issue();
    expect((await me(token)).status).toBe(200);
    const response = await revoke(token, owner);
    expect(response.status).toBe(200);
    expect(await (await introspect(token, owner)).json()).toEqual({ active: false });
    const rejected = await me(token);
    expect(rejected.status).toBe(401);
    expect(rejected.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
  });

  it('answers 200 for an already revoked, an expired and an unknown token (RFC 7009)', async () => {
    const token = await issue();
    expect((await revoke(token, owner)).status).toBe(200);
    expect((await revoke(token, owner)).status).toBe(200);
    const now = Math.floor(Date.now() / 1000);
    const expired = await signWithPlatformKey(platform, {
      iss: platform.baseUrl,
      aud: platform.baseUrl,
      sub: 'owner-app',
      client_id: 'owner-app',
      scope: 'jobs.read',
      jti: 'expired-2',
      iat: now - 7200,
      exp: now - 3600,
    });
    expect((await revoke(expired, owner)).status).toBe(200);
    expect((await revoke('never-issued', owner)).status).toBe(200);
  });

  it('refuses to let one app revoke another app token', async () => {
    const token = await issue();
    const response = await revoke(token, stranger);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'unauthorized_client' });
    expect((await me(token)).status).toBe(200);
  });

  it('lets the admin app revoke any token', async () => {
    const token = await issue();
    const response = await postForm(
      `${platform.baseUrl}/v1/oauth/revoke`,
      { token },
      { authorization: basic(platform.admin.clientId, platform.admin.clientSecret) },
    );
    expect(response.status).toBe(200);
    expect((await me(token)).status).toBe(401);
  });

  it('records issuance and revocation in the token event stream', async () => {
    const token = await issue();
    await revoke(token, owner);
    const admin = await adminToken(as, platform);
    const response = await fetch(`${platform.baseUrl}/api/v1/token-events?client_id=owner-app&limit=1000`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(response.status).toBe(200);
    const { events } = (await response.json()) as { events: Array<{ type: string; jti: string }> };
    const jti = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()).jti;
    expect(events.filter((e) => e.jti === jti).map((e) => e.type)).toEqual(['token.issued', 'token.revoked']);
  });
});
