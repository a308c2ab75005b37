import * as client from 'openid-client';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { adminToken, basic, discover, postForm, registerApp, type RegisteredApp } from '../../support/oauth';
import { sharedPlatform, type TestPlatform } from '../../support/platform';
import {
  authorize,
  clientFor,
  createSession,
  introspectAsAdmin,
  meStatus,
  signIn,
  untilRejected,
} from '../../support/internal-consent';

/** Its own apps on the shared platform; its user is TEST_IDENTITY, claims unchanged. */
describe('POST /v1/oauth/token (authorization_code)', () => {
  let platform: TestPlatform;
  let dashboard: RegisteredApp;
  let portal: RegisteredApp;

  beforeAll(async () => {
    platform = sharedPlatform();
    const admin = await adminToken(await discover(platform), platform);
    dashboard = await registerApp(platform, admin, {
      client_id: 'code-exchange-dashboard',
      app_type: 'spa',
      declared_scopes: ['jobs.*', 'files.read'],
      redirect_uris: ['https://dashboard.example.test/code-exchange/callback'],
    });
    portal = await registerApp(platform, admin, {
      client_id: 'code-exchange-portal',
      app_type: 'web',
      declared_scopes: ['jobs.read'],
      redirect_uris: ['https://portal.example.test/code-exchange/callback'],
    });
  });

  const tokenUrl = () => `${platform.baseUrl}/v1/oauth/token`;

  /** A code approved for the app, not yet exchanged, with what the exchange needs. */
  async function approvedCode(app: RegisteredApp) {
    const config = await clientFor(platform, app);
    const { session } = await createSession(platform);
    const authorization = await authorize(platform, config, { session, redirectUri: app.redirect_uris[0] });
    return { config, ...authorization, code: authorization.callback.searchParams.get('code')! };
  }

  /** The exchange as a plain form, for requests a client library would not send; no verifier if none given. */
  const exchangeForm = (app: RegisteredApp, code: string, verifier?: string) => ({
    grant_type: 'authorization_code',
    client_id: app.client_id,
    code,
    redirect_uri: app.redirect_uris[0],
    ...(verifier !== undefined && { code_verifier: verifier }),
  });

  it("issues a spa, with no secret, an RS256 user token carrying the user's tenant and roles, and a refresh token", async () => {
    const { tokens, user } = await signIn(platform, dashboard, { scope: 'jobs.read files.read' });
    expect(tokens).toMatchObject({
      token_type: 'bearer', // openid-client lower-cases it
      expires_in: 3600,
      scope: 'jobs.read files.read',
      refresh_token: expect.any(String),
    });

    const jwks = createRemoteJWKSet(new URL(`${platform.baseUrl}/v1/jwks`));
    const { payload } = await jwtVerify(tokens.access_token, jwks, {
      issuer: platform.baseUrl,
      audience: platform.baseUrl,
      typ: 'at+jwt',
      algorithms: ['RS256'],
    });
    expect(payload).toMatchObject({
      sub: user.id,
      client_id: 'code-exchange-dashboard',
      scope: 'jobs.read files.read',
      tenant: 'acme',
      roles: ['tenant_admin', 'viewer'],
      grant_id: expect.any(String),
    });

    const me = await fetch(`${platform.baseUrl}/v1/me`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({
      sub: user.id,
      tenant: 'acme',
      roles: ['tenant_admin', 'viewer'],
    });
  });

  it('grants every declared scope when the request names none', async () => {
    const { tokens } = await signIn(platform, dashboard);
    expect(tokens.scope).toBe('jobs.* files.read');
  });

  it('issues a web app its tokens when it authenticates with its secret (client_secret_post)', async () => {
    const { tokens } = await signIn(platform, portal);
    expect(tokens).toMatchObject({ scope: 'jobs.read', refresh_token: expect.any(String) });
  });

  it('refuses a web app sending a wrong secret: 401 invalid_client', async () => {
    const { code, verifier } = await approvedCode(portal);
    const response = await postForm(tokenUrl(), {
      ...exchangeForm(portal, code, verifier),
      client_secret: 'wrong',
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: 'invalid_client' });
  });

  it('refuses a web app sending its client_id alone: 401 invalid_client (RFC 6749 section 3.2.1), and keeps the code', async () => {
    const { code, verifier } = await approvedCode(portal);
    const response = await postForm(tokenUrl(), exchangeForm(portal, code, verifier));
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: 'invalid_client' });

    const { client_id: _, ...withoutId } = exchangeForm(portal, code, verifier);
    const authenticated = await postForm(tokenUrl(), withoutId, {
      authorization: basic(portal.client_id, portal.client_secret!),
    });
    expect(authenticated.status).toBe(200);
  });

  it('answers a wrong Basic secret with 401 invalid_client and a Basic challenge', async () => {
    const { code, verifier } = await approvedCode(portal);
    const { client_id: _, ...withoutId } = exchangeForm(portal, code, verifier);
    const response = await postForm(tokenUrl(), withoutId, {
      authorization: basic(portal.client_id, 'wrong'),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Basic realm="oauth"');
    expect(await response.json()).toMatchObject({ error: 'invalid_client' });
  });

  describe('a code used twice', () => {
    it('is refused with 400 invalid_grant, and the tokens of its first use stop working', async () => {
      const { config, callback, verifier, state } = await approvedCode(dashboard);
      const checks = { pkceCodeVerifier: verifier, expectedState: state };
      const first = await client.authorizationCodeGrant(config, callback, checks);
      expect(await meStatus(platform, first.access_token)).toBe(200);

      const replay = await client.authorizationCodeGrant(config, callback, checks).catch((e: unknown) => e);
      expect(replay).toBeInstanceOf(client.ResponseBodyError);
      expect(replay).toMatchObject({ status: 400, error: 'invalid_grant' });

      await untilRejected(platform, first.access_token);
      expect(await introspectAsAdmin(platform, first.access_token)).toEqual({ active: false });
      expect(await introspectAsAdmin(platform, first.refresh_token!)).toEqual({ active: false });
      const refreshed = await client.refreshTokenGrant(config, first.refresh_token!).catch((e: unknown) => e);
      expect(refreshed).toMatchObject({ status: 400, error: 'invalid_grant' });
    });
  });

  it('refuses a wrong code_verifier: 400 invalid_grant', async () => {
    const { config, callback, state } = await approvedCode(dashboard);
    const error = await client
      .authorizationCodeGrant(config, callback, {
        pkceCodeVerifier: client.randomPKCECodeVerifier(),
        expectedState: state,
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(client.ResponseBodyError);
    expect(error).toMatchObject({ status: 400, error: 'invalid_grant' });
  });

  it('refuses an exchange without code_verifier: 400 invalid_request', async () => {
    const { code } = await approvedCode(dashboard);
    const response = await postForm(tokenUrl(), exchangeForm(dashboard, code));
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'invalid_request' });
  });

  it('refuses a redirect_uri other than the one of the authorization request: 400 invalid_grant', async () => {
    const { code, verifier } = await approvedCode(dashboard);
    const response = await postForm(tokenUrl(), {
      ...exchangeForm(dashboard, code, verifier),
      redirect_uri: 'https://dashboard.example.test/other',
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it("refuses another client's code: 400 invalid_grant", async () => {
    const { code, verifier } = await approvedCode(portal);
    const response = await postForm(tokenUrl(), {
      ...exchangeForm(dashboard, code, verifier),
      redirect_uri: portal.redirect_uris[0],
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('refuses an unknown code: 400 invalid_grant', async () => {
    const response = await postForm(
      tokenUrl(),
      exchangeForm(dashboard, 'never-issued', client.randomPKCECodeVerifier()),
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'invalid_grant' });
  });
});
