import * as client from 'openid-client';
import { CookieJar } from '../../support/cookie-jar';
import { adminToken, discover, registerApp } from '../../support/oauth';
import { startPlatform, type TestPlatform } from '../../support/platform';
import { ALICE, BOB, hiddenField, SESSION_COOKIE, signInWithFetch } from '../../support/browser-login';

const CLIENT_ID = 'ledger-spa';
const REDIRECT_URI = 'https://ledger.example.com/callback';
/** A native app's loopback redirect URI, registered without a port (RFC 8252 section 7.3). */
const NATIVE_CLIENT_ID = 'ledger-cli';
const NATIVE_REDIRECT_URI = 'http://127.0.0.1/callback';

/** The authorization endpoint's answers a browser gets, driven with plain fetch and a cookie jar. */
describe('GET /oauth/authorize', () => {
  let platform: TestPlatform;

  beforeAll(async () => {
    platform = await startPlatform({ withIdentityProvider: true });
    const admin = await adminToken(await discover(platform), platform);
    await registerApp(platform, admin, {
      client_id: CLIENT_ID,
      name: 'Ledger',
      app_type: 'spa',
      declared_scopes: ['jobs.read'],
      redirect_uris: [REDIRECT_URI],
    });
    await registerApp(platform, admin, {
      client_id: NATIVE_CLIENT_ID,
      name: 'Ledger CLI',
      app_type: 'cli',
      declared_scopes: ['jobs.read'],
      redirect_uris: [NATIVE_REDIRECT_URI],
    });
  });
  afterAll(() => platform?.stop());

  type AuthorizeParameters = Record<
    | 'client_id'
    | 'redirect_uri'
    | 'response_type'
    | 'scope'
    | 'code_challenge'
    | 'code_challenge_method'
    | 'state',
    string
  >;

  async function validParameters(): Promise<AuthorizeParameters> {
    return {
      client_id: CLIENT_ID,
      redirect_uri: REDIRECT_URI,
      response_type: 'code',
      scope: 'jobs.read',
      code_challenge: await client.calculatePKCECodeChallenge(client.randomPKCECodeVerifier()),
      code_challenge_method: 'S256',
      state: client.randomState(),
    };
  }

  const authorizePath = (parameters: Partial<AuthorizeParameters>) =>
    `/oauth/authorize?${new URLSearchParams(parameters).toString()}`;

  const authorize = (parameters: Partial<AuthorizeParameters>, jar = new CookieJar()) =>
    jar.fetch(`${platform.baseUrl}${authorizePath(parameters)}`);

  const expectErrorPage = async (response: Response) => {
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('location')).toBeNull();
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(await response.text()).toContain('invalid authorization request');
  };

  const expectClientRedirect = (response: Response, error: string, state: string) => {
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get('location') ?? '');
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT_URI);
    expect(location.searchParams.get('error')).toBe(error);
    expect(location.searchParams.get('state')).toBe(state);
    expect(location.searchParams.get('code')).toBeNull();
  };

  describe('requests that can never be redirected', () => {
    it('shows an error page for an unknown client_id and does not redirect', async () => {
      await expectErrorPage(await authorize({ ...(await validParameters()), client_id: 'no-such-app' }));
    });

    it('shows an error page for a redirect_uri that is not registered exactly', async () => {
      await expectErrorPage(
        await authorize({ ...(await validParameters()), redirect_uri: `${REDIRECT_URI}/../evil` }),
      );
      await expectErrorPage(
        await authorize({ ...(await validParameters()), redirect_uri: 'https://evil.example/callback' }),
      );
    });
  });

  describe("a native (cli) app's loopback redirect URI", () => {
    const nativeParameters = async (redirect_uri: string) => ({
      ...(await validParameters()),
      client_id: NATIVE_CLIENT_ID,
      redirect_uri,
    });

    it('matches on any port, and the code goes back to the port the app listens on', async () => {
      const jar = new CookieJar();
      await signInWithFetch(jar, platform, ALICE.email);
      for (const port of [53123, 49152]) {
        const parameters = await nativeParameters(`http://127.0.0.1:${port}/callback`);
        const consent = await authorize(parameters, jar);
        expect(consent.status).toBe(200);
        const approved = await jar.fetch(`${platform.baseUrl}/oauth/authorize/decision`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({
            ...parameters,
            decision: 'approve',
            csrf_token: hiddenField(await consent.text(), 'csrf_token') ?? '',
          }),
        });
        expect(approved.status).toBe(303);
        const location = new URL(approved.headers.get('location') ?? '');
        expect(`${location.origin}${location.pathname}`).toBe(`http://127.0.0.1:${port}/callback`);
        expect(location.searchParams.get('code')).toEqual(expect.any(String));
      }
    });

    it('shows an error page when more than the port differs', async () => {
      for (const redirect_uri of [
        'http://127.0.0.1:53123/other',
        'http://127.1:53123/callback',
        'http://[::1]:53123/callback',
        'http://localhost:53123/callback',
      ]) {
        await expectErrorPage(await authorize(await nativeParameters(redirect_uri)));
      }
    });
  });

  describe('requests redirected back with an error, before anyone logs in', () => {
    it('refuses a missing code_challenge with invalid_request', async () => {
      const parameters: Partial<AuthorizeParameters> = await validParameters();
      delete parameters.code_challenge;
      expectClientRedirect(await authorize(parameters), 'invalid_request', parameters.state ?? '');
    });

    it('refuses code_challenge_method=plain with invalid_request', async () => {
      const parameters = { ...(await validParameters()), code_challenge_method: 'plain' };
      expectClientRedirect(await authorize(parameters), 'invalid_request', parameters.state);
    });

    it('refuses response_type=token with unsupported_response_type', async () => {
      const parameters = { ...(await validParameters()), response_type: 'token' };
      expectClientRedirect(await authorize(parameters), 'unsupported_response_type', parameters.state);
    });

    it('refuses a scope the app did not declare with invalid_scope', async () => {
      const parameters = { ...(await validParameters()), scope: 'jobs.read secrets.read' };
      expectClientRedirect(await authorize(parameters), 'invalid_scope', parameters.state);
    });
  });

  describe('a valid request', () => {
    it('sends a browser without a session to the login, coming back to the same request', async () => {
      const parameters = await validParameters();
      const response = await authorize(parameters);
      expect(response.status).toBe(302);
      const location = new URL(response.headers.get('location') ?? '', platform.baseUrl);
      expect(location.pathname).toBe('/auth/login');
      expect(location.searchParams.get('return_to')).toBe(authorizePath(parameters));
    });

    it('shows the consent screen after login, and a post without the CSRF token issues nothing', async () => {
      const jar = new CookieJar();
      const parameters = await validParameters();
      const callback = await signInWithFetch(jar, platform, ALICE.email, authorizePath(parameters));
      expect(callback.status).toBe(302);
      expect(callback.headers.get('location')).toBe(authorizePath(parameters));

      const consent = await authorize(parameters, jar);
      expect(consent.status).toBe(200);
      const page = await consent.text();
      expect(page).toContain('Ledger');
      expect(page).toContain('List and view job executions');
      expect(consent.headers.get('content-security-policy')).toContain(
        "form-action 'self' https://ledger.example.com",
      );

      const forged = await jar.fetch(`${platform.baseUrl}/oauth/authorize/decision`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ ...parameters, decision: 'approve' }),
      });
      expect(forged.status).toBe(403);
      expect(forged.headers.get('location')).toBeNull();
      expect(await forged.text()).not.toContain('code=');

      const approved = await jar.fetch(`${platform.baseUrl}/oauth/authorize/decision`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          ...parameters,
          decision: 'approve',
          csrf_token: hiddenField(page, 'csrf_token') ?? '',
        }),
      });
      expect(approved.status).toBe(303);
      const location = new URL(approved.headers.get('location') ?? '');
      expect(location.searchParams.get('code')).toEqual(expect.any(String));
      expect(location.searchParams.get('state')).toBe(parameters.state);
    });

    it("refuses one user's CSRF token in another user's session", async () => {
      const parameters = await validParameters();
      const alice = new CookieJar();
      await signInWithFetch(alice, platform, ALICE.email);
      const aliceToken = hiddenField(await (await authorize(parameters, alice)).text(), 'csrf_token');
      const bob = new CookieJar();
      await signInWithFetch(bob, platform, BOB.email);
      const response = await bob.fetch(`${platform.baseUrl}/oauth/authorize/decision`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ ...parameters, decision: 'approve', csrf_token: aliceToken ?? '' }),
      });
      expect(response.status).toBe(403);
    });
  });

  describe('POST /auth/logout', () => {
    it('refuses a logout without the CSRF token, then ends the session with it, for good', async () => {
      const jar = new CookieJar();
      const parameters = await validParameters();
      await signInWithFetch(jar, platform, ALICE.email);
      const page = await (await authorize(parameters, jar)).text();
      const session = jar.get(platform.baseUrl, SESSION_COOKIE) ?? '';
      expect(session).not.toBe('');

      const refused = await jar.fetch(`${platform.baseUrl}/auth/logout`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: '',
      });
      expect(refused.status).toBe(403);
      expect((await authorize(parameters, jar)).status).toBe(200);

      const loggedOut = await jar.fetch(`${platform.baseUrl}/auth/logout`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ csrf_token: hiddenField(page, 'csrf_token') ?? '' }),
      });
      expect(loggedOut.status).toBe(200);
      expect(jar.get(platform.baseUrl, SESSION_COOKIE)).toBeUndefined();

      // The old cookie value, replayed, is no session any more: the control plane ended it.
      const replay = new CookieJar();
      replay.set(platform.baseUrl, SESSION_COOKIE, session);
      const response = await authorize(parameters, replay);
      expect(response.status).toBe(302);
      expect(response.headers.get('location')).toMatch(/^\/auth\/login\?return_to=/);
    });
  });
});
