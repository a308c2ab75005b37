import { CookieJar } from '../../support/cookie-jar';
import { clientCredentialsToken, discover } from '../../support/oauth';
import { startPlatform, type TestPlatform } from '../../support/platform';
import {
  ALICE,
  LOGIN_COOKIE,
  locationOf,
  SESSION_COOKIE,
  signInWithFetch,
} from '../../support/browser-login';

describe('GET /auth/login', () => {
  let platform: TestPlatform;

  beforeAll(async () => {
    platform = await startPlatform({ withIdentityProvider: true });
  });
  afterAll(() => platform?.stop());

  const login = (query: string, jar = new CookieJar()) => jar.fetch(`${platform.baseUrl}/auth/login${query}`);

  it('sends the browser to the identity provider with PKCE S256, state and nonce', async () => {
    const response = await login('?return_to=%2Fhealth');
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get('location') ?? '');
    expect(location.origin).toBe(platform.identityProvider?.issuer);
    expect(Object.fromEntries(location.searchParams)).toMatchObject({
      client_id: platform.identityProvider?.clientId,
      redirect_uri: `${platform.baseUrl}/auth/oidc/callback`,
      response_type: 'code',
      code_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      code_challenge_method: 'S256',
      state: expect.any(String),
      nonce: expect.any(String),
    });
    expect(location.searchParams.get('scope')?.split(' ')).toContain('openid');
    const cookie = response.headers.getSetCookie().find((c) => c.startsWith(`${LOGIN_COOKIE}=`));
    expect(cookie).toMatch(/; Max-Age=600; Path=\/; HttpOnly; SameSite=Lax$/);
    expect(cookie).not.toContain(location.searchParams.get('state') ?? 'no state');
  });

  it.each(['//evil.example', 'https://evil.example', '/\\evil.example', 'javascript:alert(1)'])(
    'refuses return_to=%s with an error page, no redirect and no cookie',
    async (returnTo) => {
      const response = await login(`?return_to=${encodeURIComponent(returnTo)}`);
      expect(response.status).toBe(400);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.headers.get('location')).toBeNull();
      expect(response.headers.getSetCookie()).toEqual([]);
    },
  );

  describe('GET /auth/oidc/callback', () => {
    it('opens a session and goes back to return_to after the identity provider signed the user in', async () => {
      const jar = new CookieJar();
      const callback = await signInWithFetch(jar, platform, ALICE.email, '/health');
      expect(callback.status).toBe(302);
      expect(callback.headers.get('location')).toBe('/health');
      const session = callback.headers.getSetCookie().find((c) => c.startsWith(`${SESSION_COOKIE}=`));
      expect(session).toMatch(/; Max-Age=\d+; Path=\/; HttpOnly; SameSite=Lax$/);
      expect(jar.get(platform.baseUrl, LOGIN_COOKIE)).toBeUndefined();
    });

    it('gives every login a fresh session, whatever session cookie the browser came with (no fixation)', async () => {
      // An attacker signs in and plants their own session cookie in the victim's browser.
      const attacker = new CookieJar();
      await signInWithFetch(attacker, platform, ALICE.email);
      const planted = attacker.get(platform.baseUrl, SESSION_COOKIE)!;
      const victim = new CookieJar();
      victim.set(platform.baseUrl, SESSION_COOKIE, planted);

      const callback = await signInWithFetch(victim, platform, ALICE.email);
      expect(callback.status).toBe(302);
      const issued = victim.get(platform.baseUrl, SESSION_COOKIE);
      expect(issued).toEqual(expect.any(String));
      expect(issued).not.toBe(planted);
    });

    it('refuses the same callback twice: its transaction is gone after the first use', async () => {
      const jar = new CookieJar();
      const callback = await signInWithFetch(jar, platform, ALICE.email);
      expect(callback.status).toBe(302);
      const replay = await jar.fetch(callback.url);
      expect(replay.status).toBe(400);
      expect(replay.headers.getSetCookie().some((c) => c.startsWith(`${SESSION_COOKIE}=s`))).toBe(false);
    });

    it('refuses a callback without its transaction cookie (login CSRF)', async () => {
      const response = await new CookieJar().fetch(
        `${platform.baseUrl}/auth/oidc/callback?code=abc&state=xyz`,
      );
      expect(response.status).toBe(400);
      expect(await response.text()).toContain('start again');
    });

    it('refuses a callback whose state is not the one of its transaction', async () => {
      const jar = new CookieJar();
      let url = new URL(`${platform.baseUrl}/auth/login`);
      const response = await jar.fetch(url);
      url = locationOf(response, url);
      const forged = new URL(`${platform.baseUrl}/auth/oidc/callback`);
      forged.searchParams.set('code', 'attacker-code');
      forged.searchParams.set('state', 'attacker-state');
      forged.searchParams.set('iss', url.origin);
      const answer = await jar.fetch(forged);
      expect(answer.status).toBe(400);
      expect(jar.get(platform.baseUrl, SESSION_COOKIE)).toBeUndefined();
    });

    it('shows a 403 page when the user cancels at the identity provider', async () => {
      const jar = new CookieJar();
      let url = new URL(`${platform.baseUrl}/auth/login`);
      let response = await jar.fetch(url);
      while (response.status >= 300 && response.status < 400) {
        url = locationOf(response, url);
        response = await jar.fetch(url);
      }
      expect(url.pathname).toMatch(/^\/interaction\//);
      url = new URL(`${url.pathname}/abort`, url);
      response = await jar.fetch(url, { method: 'POST' });
      while (response.status >= 300 && response.status < 400) {
        url = locationOf(response, url);
        response = await jar.fetch(url);
      }
      expect(url.pathname).toBe('/auth/oidc/callback');
      expect(response.status).toBe(403);
      expect(await response.text()).toContain('access_denied');
      expect(jar.get(platform.baseUrl, SESSION_COOKIE)).toBeUndefined();
    });
  });
});

describe('GET /auth/login while the identity provider is down', () => {
  let platform: TestPlatform;

  beforeAll(async () => {
    // Nothing listens on port 9 of loopback: discovery fails at every login.
    platform = await startPlatform({
      env: {
        OIDC_ISSUER: 'http://127.0.0.1:9',
        OIDC_CLIENT_ID: 'platform-backend',
        OIDC_CLIENT_SECRET: 'unused-secret',
      },
    });
  });
  afterAll(() => platform?.stop());

  it('still starts and serves the service model', async () => {
    expect((await fetch(`${platform.baseUrl}/health`)).status).toBe(200);
    const token = await clientCredentialsToken(await discover(platform), platform.admin);
    expect(token.access_token).toEqual(expect.any(String));
  });

  it('answers login with a clear 503 page', async () => {
    const response = await fetch(`${platform.baseUrl}/auth/login`, { redirect: 'manual' });
    expect(response.status).toBe(503);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await response.text()).toContain('The identity provider is unavailable');
  });
});
