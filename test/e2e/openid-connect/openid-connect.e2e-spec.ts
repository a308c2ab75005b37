import { createHash } from 'node:crypto';
import { decodeJwt } from 'jose';
import * as client from 'openid-client';
import { SESSION_COOKIE } from '../../support/browser-login';
import { CookieJar } from '../../support/cookie-jar';
import { createSession, identityOf, type TestIdentity } from '../../support/internal-consent';
import {
  adminToken,
  clientCredentialsToken,
  discover,
  registerApp,
  type RegisteredApp,
} from '../../support/oauth';
import { sharedPlatform, type TestPlatform } from '../../support/platform';
import { approvedLanding } from './authorize-in-browser';

const TENANT = 'oidc-rp-tenant';
const ADA = identityOf('oidc-ada', TENANT, ['user']);
const BEA = identityOf('oidc-bea', TENANT, ['user']);

/**
 * The platform as an OpenID Provider (docs/openid-connect.md), through the built processes with
 * openid-client in OIDC mode: discovery, code + PKCE + nonce with the ID token validated by the
 * library, UserInfo, refresh, and the checks of the OpenID Foundation's basic OP plan that can be
 * made here. The browser's session comes from the control plane's test seam (the login itself is
 * test/e2e/login's); every request after it is the public surface.
 */
describe('OpenID Connect provider', () => {
  let platform: TestPlatform;
  let app: RegisteredApp;
  let config: client.Configuration;

  beforeAll(async () => {
    platform = sharedPlatform();
    const admin = await adminToken(await discover(platform), platform);
    app = await registerApp(platform, admin, {
      client_id: 'oidc-rp-web',
      app_type: 'web',
      declared_scopes: ['jobs.read'],
      redirect_uris: ['https://oidc-rp.example.test/callback'],
    });
    config = await client.discovery(
      new URL(platform.baseUrl),
      app.client_id,
      undefined,
      client.ClientSecretPost(app.client_secret!),
      { execute: [client.allowInsecureRequests] },
    );
  });

  /** A browser signed in as `identity`: the session cookie in a jar. */
  async function browserOf(identity: TestIdentity): Promise<{ jar: CookieJar; userId: string }> {
    const { session, user } = await createSession(platform, identity);
    const jar = new CookieJar();
    jar.set(platform.baseUrl, SESSION_COOKIE, session);
    return { jar, userId: user.id };
  }

  interface Request {
    url: URL;
    verifier: string;
    state: string;
    nonce: string;
  }

  async function authorizationRequest(parameters: Record<string, string> = {}): Promise<Request> {
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = client.randomNonce();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: app.redirect_uris[0],
      scope: 'openid profile email jobs.read',
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
      ...parameters,
    });
    return { url, verifier, state, nonce };
  }

  const landing = (jar: CookieJar, request: Request) => approvedLanding(platform, jar, request.url);

  const exchange = (callback: URL, request: Request) =>
    client.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: request.verifier,
      expectedState: request.state,
      expectedNonce: request.nonce,
      idTokenExpected: true,
    });

  /** Signs `identity` in and approves a request: its tokens, validated by openid-client. */
  async function signedIn(identity: TestIdentity) {
    const browser = await browserOf(identity);
    const request = await authorizationRequest();
    const tokens = await exchange(await landing(browser.jar, request), request);
    return { ...browser, tokens };
  }

  it('publishes one configuration at both well-known addresses, as openid-client discovers it', async () => {
    const openid = await (await fetch(`${platform.baseUrl}/.well-known/openid-configuration`)).json();
    const oauth = await (await fetch(`${platform.baseUrl}/.well-known/oauth-authorization-server`)).json();
    expect(openid).toEqual(oauth);
    expect(config.serverMetadata()).toMatchObject({
      issuer: platform.baseUrl,
      userinfo_endpoint: `${platform.baseUrl}/v1/oauth/userinfo`,
      id_token_signing_alg_values_supported: ['RS256'],
      subject_types_supported: ['public'],
    });
  });

  it('signs in with code, PKCE and nonce: an ID token the library validates, UserInfo, a refresh', async () => {
    const { tokens, userId } = await signedIn(ADA);

    const claims = tokens.claims()!;
    expect(claims).toMatchObject({ iss: platform.baseUrl, sub: userId, aud: app.client_id, amr: ['fed'] });
    expect(claims.auth_time).toEqual(expect.any(Number));
    expect(claims.sid).toEqual(expect.any(String));
    const digest = createHash('sha256').update(tokens.access_token).digest();
    expect(claims.at_hash).toBe(digest.subarray(0, 16).toString('base64url'));

    await expect(client.fetchUserInfo(config, tokens.access_token, userId)).resolves.toEqual({
      sub: userId,
      name: 'oidc-ada',
      preferred_username: `oidc-ada@${TENANT}.example.test`,
      email: `oidc-ada@${TENANT}.example.test`,
      updated_at: expect.any(Number),
    });

    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
    const again = refreshed.claims()!;
    expect(again).toMatchObject({ sub: userId, auth_time: claims.auth_time, sid: claims.sid });
    expect(again).not.toHaveProperty('nonce');
    await expect(client.fetchUserInfo(config, refreshed.access_token, userId)).resolves.toMatchObject({
      sub: userId,
    });
  });

  describe('prompt=none', () => {
    it('answers login_required without a session', async () => {
      const request = await authorizationRequest({ prompt: 'none' });
      const callback = await landing(new CookieJar(), request);
      expect(callback.searchParams.get('error')).toBe('login_required');
      expect(callback.searchParams.get('state')).toBe(request.state);
    });

    it('answers consent_required until the user approved, then a code without a page', async () => {
      const { jar, userId } = await browserOf(BEA);
      const silent = await authorizationRequest({ prompt: 'none' });
      expect((await landing(jar, silent)).searchParams.get('error')).toBe('consent_required');

      const first = await authorizationRequest();
      const tokens = await exchange(await landing(jar, first), first);

      const again = await authorizationRequest({ prompt: 'none', id_token_hint: tokens.id_token! });
      const response = await jar.fetch(again.url);
      expect(response.status).toBe(302);
      const silentTokens = await exchange(new URL(response.headers.get('location')!), again);
      expect(silentTokens.claims()?.sub).toBe(userId);
    });

    it('answers login_required when the id_token_hint names another user than the session', async () => {
      const { tokens } = await signedIn(ADA);
      const { jar } = await browserOf(BEA);
      const request = await authorizationRequest({ prompt: 'none', id_token_hint: tokens.id_token! });
      expect((await landing(jar, request)).searchParams.get('error')).toBe('login_required');
    });
  });

  it('sends a login older than max_age, or prompt=login, to sign in again and back without them', async () => {
    const { jar } = await browserOf(ADA);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    for (const parameters of [{ max_age: '1' }, { prompt: 'login' }] as Array<Record<string, string>>) {
      const request = await authorizationRequest(parameters);
      const login = await landing(jar, request);
      expect(login.pathname).toBe('/auth/login');
      expect(login.searchParams.get('prompt')).toBe('login');
      const back = new URL(login.searchParams.get('return_to')!, platform.baseUrl);
      expect(back.pathname).toBe('/oauth/authorize');
      expect(back.searchParams.get('nonce')).toBe(request.nonce);
      expect(back.searchParams.has('max_age')).toBe(false);
      expect(back.searchParams.has('prompt')).toBe(false);
    }
    // A recent enough login is used as it is.
    const recent = await authorizationRequest({ max_age: '3600' });
    const consent = await jar.fetch(recent.url);
    expect(consent.status).toBe(200);
  });

  it.each([
    [{ request: 'eyJhbGciOiJub25lIn0.e30.' }, 'request_not_supported'],
    [{ request_uri: 'https://oidc-rp.example.test/request.jwt' }, 'request_uri_not_supported'],
    [{ prompt: 'select_account' }, 'invalid_request'],
    [{ max_age: 'an hour' }, 'invalid_request'],
    [{ id_token_hint: 'not-a-token' }, 'invalid_request'],
  ])('refuses %j with %s through the redirect URI', async (parameters, error) => {
    const { jar } = await browserOf(ADA);
    const request = await authorizationRequest(parameters);
    const callback = await landing(jar, request);
    expect(`${callback.origin}${callback.pathname}`).toBe(app.redirect_uris[0]);
    expect(callback.searchParams.get('error')).toBe(error);
    expect(callback.searchParams.get('state')).toBe(request.state);
  });

  describe('UserInfo refuses', () => {
    const userinfo = (init: RequestInit = {}) => fetch(`${platform.baseUrl}/v1/oauth/userinfo`, init);

    it('a request without a token or with a foreign one: 401 with a challenge', async () => {
      const bare = await userinfo();
      expect(bare.status).toBe(401);
      expect(bare.headers.get('www-authenticate')).toMatch(/^Bearer/);
      const forged = await userinfo({ headers: { authorization: 'Bearer x.y.z' } });
      expect(forged.status).toBe(401);
      expect(forged.headers.get('www-authenticate')).toContain('error="invalid_token"');
    });

    it('an ID token presented as an access token', async () => {
      const { tokens } = await signedIn(ADA);
      const response = await userinfo({ headers: { authorization: `Bearer ${tokens.id_token}` } });
      expect(response.status).toBe(401);
    });

    it('a token without openid (a service token, a user token without it): 403 insufficient_scope', async () => {
      const service = await clientCredentialsToken(await discover(platform), {
        clientId: platform.admin.clientId,
        clientSecret: platform.admin.clientSecret,
      });
      const serviceAnswer = await userinfo({ headers: { authorization: `Bearer ${service.access_token}` } });
      expect(serviceAnswer.status).toBe(403);
      expect(serviceAnswer.headers.get('www-authenticate')).toContain('error="insufficient_scope"');

      const { tokens } = await signedIn(ADA);
      const narrowed = await client.refreshTokenGrant(config, tokens.refresh_token!, { scope: 'jobs.read' });
      expect(narrowed.id_token).toBeUndefined();
      const answer = await userinfo({
        method: 'POST',
        headers: { authorization: `Bearer ${narrowed.access_token}` },
      });
      expect(answer.status).toBe(403);
    });

    it('answers POST as GET for a token with openid', async () => {
      const { tokens, userId } = await signedIn(ADA);
      const response = await userinfo({
        method: 'POST',
        headers: { authorization: `Bearer ${tokens.access_token}` },
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(decodeJwt(tokens.id_token!).sub).toBe(userId);
      await expect(response.json()).resolves.toMatchObject({ sub: userId });
    });
  });
});
