import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import * as client from 'openid-client';
import { hiddenField, SESSION_COOKIE } from '../../support/browser-login';
import { CookieJar } from '../../support/cookie-jar';
import { createSession, identityOf } from '../../support/internal-consent';
import { adminToken, discover, registerApp, type RegisteredApp } from '../../support/oauth';
import { sharedPlatform, type TestPlatform } from '../../support/platform';
import { approvedLanding } from './authorize-in-browser';

const TENANT = 'oidc-logout-tenant';
const SIGNED_OUT = 'https://logout-rp.example.test/signed-out';
const BACKCHANNEL_EVENT = 'http://schemas.openid.net/event/backchannel-logout';

/** A relying party's back-channel logout endpoint: keeps every POST, answers as scripted. */
class LogoutReceiver {
  readonly received: Array<{ contentType: string; logoutToken: string | null }> = [];
  /** The status of each POST in turn; the last one again after. */
  statuses: number[] = [204];
  private readonly server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      this.received.push({
        contentType: request.headers['content-type'] ?? '',
        logoutToken: new URLSearchParams(body).get('logout_token'),
      });
      const status = this.statuses[Math.min(this.received.length - 1, this.statuses.length - 1)];
      response.writeHead(status, { 'cache-control': 'no-store' }).end();
    });
  });

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/backchannel-logout`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  async waitFor(count: number, timeoutMs = 15_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.received.length < count) {
      if (Date.now() > deadline)
        throw new Error(`${this.received.length} back-channel logouts, not ${count}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

/**
 * OpenID Connect logout on the built processes (docs/openid-connect.md, "Logout"): openid-client's
 * end-session URL (RP-Initiated Logout 1.0) with a registered `post_logout_redirect_uri`, the
 * refusal of an unregistered one, the confirmation a request without a matching hint needs, and
 * the back-channel logout token (Back-Channel Logout 1.0) at a real receiver, retried after a
 * failure and verified against the platform's key set; the session's grants revoked except the
 * `offline_access` one.
 */
describe('OpenID Connect logout', () => {
  let platform: TestPlatform;
  let admin: string;
  let app: RegisteredApp;
  let config: client.Configuration;
  const receiver = new LogoutReceiver();

  beforeAll(async () => {
    platform = sharedPlatform();
    admin = await adminToken(await discover(platform), platform);
    app = await registerApp(platform, admin, {
      client_id: 'oidc-logout-rp',
      app_type: 'web',
      declared_scopes: ['jobs.read'],
      redirect_uris: ['https://logout-rp.example.test/callback'],
      post_logout_redirect_uris: [SIGNED_OUT],
      backchannel_logout_uri: await receiver.start(),
    } as Partial<RegisteredApp> & { client_id: string });
    config = await client.discovery(
      new URL(platform.baseUrl),
      app.client_id,
      undefined,
      client.ClientSecretPost(app.client_secret!),
      { execute: [client.allowInsecureRequests] },
    );
  });

  afterAll(() => receiver.stop());

  /** A browser holding a session of a user of its own: the cookie in a jar. */
  async function browser(subject: string): Promise<CookieJar> {
    const { session } = await createSession(platform, identityOf(subject, TENANT, ['user']));
    const jar = new CookieJar();
    jar.set(platform.baseUrl, SESSION_COOKIE, session);
    return jar;
  }

  /** The code flow in that browser, validated by openid-client. */
  async function signIn(jar: CookieJar, scope: string) {
    const pkceCodeVerifier = client.randomPKCECodeVerifier();
    const expectedState = client.randomState();
    const expectedNonce = client.randomNonce();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: app.redirect_uris[0],
      scope,
      code_challenge: await client.calculatePKCECodeChallenge(pkceCodeVerifier),
      code_challenge_method: 'S256',
      state: expectedState,
      nonce: expectedNonce,
    });
    const callback = await approvedLanding(platform, jar, url);
    return client.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier,
      expectedState,
      expectedNonce,
      idTokenExpected: true,
    });
  }

  it('publishes the end-session endpoint and back-channel logout support', () => {
    expect(config.serverMetadata()).toMatchObject({
      end_session_endpoint: `${platform.baseUrl}/oauth/logout`,
      backchannel_logout_supported: true,
      backchannel_logout_session_supported: true,
    });
    expect(app).toMatchObject({ post_logout_redirect_uris: [SIGNED_OUT] });
  });

  it('signs out at the client’s request, tells it on the back channel (after a failure) and revokes what the session granted but offline_access', async () => {
    const jar = await browser('logout-ada');
    const online = await signIn(jar, 'openid jobs.read');
    const offline = await signIn(jar, 'openid offline_access jobs.read');
    const { sid, sub } = online.claims()!;
    expect(sid).toEqual(expect.any(String));
    receiver.statuses = [500, 204];
    const before = receiver.received.length;

    const end = client.buildEndSessionUrl(config, {
      id_token_hint: online.id_token!,
      post_logout_redirect_uri: SIGNED_OUT,
      state: 'bye-123',
    });
    const response = await jar.fetch(end);
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe(`${SIGNED_OUT}?state=bye-123`);
    expect(jar.get(platform.baseUrl, SESSION_COOKIE)).toBeUndefined();

    // The first POST fails (500); the retry comes on the webhooks' schedule, 5 s later.
    await receiver.waitFor(before + 2);
    const [failed, delivered] = receiver.received.slice(before);
    expect(delivered.contentType).toBe('application/x-www-form-urlencoded');
    expect(failed.logoutToken).not.toBe(delivered.logoutToken);
    const token = delivered.logoutToken!;
    expect(decodeProtectedHeader(token)).toMatchObject({ alg: 'RS256', typ: 'logout+jwt' });
    const jwks = createRemoteJWKSet(new URL(config.serverMetadata().jwks_uri!));
    const { payload } = await jwtVerify(token, jwks, {
      issuer: platform.baseUrl,
      audience: app.client_id,
      typ: 'logout+jwt',
      algorithms: ['RS256'],
    });
    expect(payload).toMatchObject({ sub, sid, events: { [BACKCHANNEL_EVENT]: {} } });
    expect(payload).not.toHaveProperty('nonce');
    expect(payload.jti).toEqual(expect.any(String));

    // The grant begun without offline_access is revoked; the offline one still refreshes.
    await expect(client.refreshTokenGrant(config, online.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    const refreshed = await client.refreshTokenGrant(config, offline.refresh_token!);
    expect(refreshed.access_token).toEqual(expect.any(String));
    // Its access token too, through the deny-list the sidecars follow.
    const introspected = await fetch(`${platform.baseUrl}/v1/oauth/introspect`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        token: online.access_token,
        client_id: app.client_id,
        client_secret: app.client_secret!,
      }),
    });
    await expect(introspected.json()).resolves.toMatchObject({ active: false });
  });

  it('refuses an unregistered post_logout_redirect_uri with a page, never a redirect', async () => {
    const jar = await browser('logout-bea');
    const tokens = await signIn(jar, 'openid jobs.read');
    const end = client.buildEndSessionUrl(config, {
      id_token_hint: tokens.id_token!,
      post_logout_redirect_uri: 'https://attacker.example.test/landing',
    });

    const response = await jar.fetch(end);
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
    expect(await response.text()).toContain('post_logout_redirect_uri is not registered for this client');
    // The session lives on.
    expect(jar.get(platform.baseUrl, SESSION_COOKIE)).toBeDefined();
    await expect(signIn(jar, 'openid jobs.read')).resolves.toBeDefined();
  });

  it('asks the user before signing out a request without a hint, and needs the page’s CSRF token', async () => {
    const jar = await browser('logout-cy');
    const end = client.buildEndSessionUrl(config, { post_logout_redirect_uri: SIGNED_OUT, state: 'ask' });

    const page = await jar.fetch(end);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Sign out?');
    expect(jar.get(platform.baseUrl, SESSION_COOKIE)).toBeDefined();
    await expect(signIn(jar, 'openid jobs.read')).resolves.toBeDefined(); // still signed in

    const form = (csrf: string) =>
      jar.fetch(`${platform.baseUrl}/oauth/logout`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          client_id: hiddenField(html, 'client_id')!,
          post_logout_redirect_uri: hiddenField(html, 'post_logout_redirect_uri')!,
          state: hiddenField(html, 'state')!,
          csrf_token: csrf,
        }),
      });
    expect((await form('forged')).status).toBe(403);
    const confirmed = await form(hiddenField(html, 'csrf_token')!);
    expect(confirmed.status).toBe(303);
    expect(confirmed.headers.get('location')).toBe(`${SIGNED_OUT}?state=ask`);
    expect(jar.get(platform.baseUrl, SESSION_COOKIE)).toBeUndefined();
  });

  it('re-sends a client’s form post without the session cookie as a GET, which carries it', async () => {
    const posted = await fetch(`${platform.baseUrl}/oauth/logout`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        client_id: app.client_id,
        post_logout_redirect_uri: SIGNED_OUT,
        state: 'p',
      }),
    });
    expect(posted.status).toBe(303);
    const again = new URL(posted.headers.get('location')!, platform.baseUrl);
    expect(again.pathname).toBe('/oauth/logout');
    const jar = await browser('logout-dan');
    const page = await jar.fetch(again);
    expect(page.status).toBe(200); // the confirmation, for this browser's session
    expect(hiddenField(await page.text(), 'state')).toBe('p');
  });

  it('lets an administrator change the logout URIs under their rules', async () => {
    const patch = (body: object) =>
      fetch(`${platform.baseUrl}/v1/oauth/apps/${app.client_id}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const refused = await patch({
      post_logout_redirect_uris: ['https://logout-rp.example.test/out#fragment'],
    });
    expect(refused.status).toBe(400);

    const changed = await patch({
      post_logout_redirect_uris: [SIGNED_OUT, 'https://logout-rp.example.test/bye'],
    });
    expect(changed.status).toBe(200);
    await expect(changed.json()).resolves.toMatchObject({
      post_logout_redirect_uris: [SIGNED_OUT, 'https://logout-rp.example.test/bye'],
      backchannel_logout_uri: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/backchannel-logout$/),
    });
  });
});
