import { CookieJar } from '../../support/cookie-jar';
import { ALICE, BOB, LOGIN_COOKIE } from '../../support/browser-login';
import { adminToken, basic, discover, postForm, registerApp, type RegisteredApp } from '../../support/oauth';
import { startPlatform, type TestPlatform } from '../../support/platform';
import { signWithPlatformKey } from '../../support/tokens';
import {
  appLoginSecrets,
  appLoginUrl,
  appLoginWithFetch,
  type AppTokens,
  postJson,
  startApp,
} from './helpers';

describe('/api/v1/auth (app login of the user-forwarding model)', () => {
  let platform: TestPlatform;
  let app: Awaited<ReturnType<typeof startApp>>;
  let spaApp: Awaited<ReturnType<typeof startApp>>;
  let newcomer: RegisteredApp;
  let spa: RegisteredApp;
  let admin: string;

  beforeAll(async () => {
    platform = await startPlatform({ withIdentityProvider: true });
    [app, spaApp] = await Promise.all([startApp(), startApp()]);
    admin = await adminToken(await discover(platform), platform);
    // A web app holds a secret (confidential); a spa holds none (public).
    newcomer = await registerApp(platform, admin, {
      client_id: 'newcomer',
      name: 'Newcomer app',
      app_type: 'web',
      declared_scopes: ['jobs.read', 'files.read'],
      redirect_uris: [app.callback],
    });
    spa = await registerApp(platform, admin, {
      client_id: 'newcomer-spa',
      app_type: 'spa',
      declared_scopes: ['jobs.read'],
      redirect_uris: [spaApp.callback],
    });
  });
  afterAll(async () => {
    await Promise.all([app?.close(), spaApp?.close()]);
    await platform?.stop();
  });

  /** The app's credentials in the JSON body: client_id always, the secret of an app that holds one. */
  const credentials = (of: RegisteredApp) => ({
    clientId: of.client_id,
    ...(of.client_secret !== undefined && { clientSecret: of.client_secret }),
  });

  /**
   * Signs the user in through the app login (a fresh PKCE pair and state) and answers what the
   * app's callback receives, with the verifier it kept.
   */
  async function loginCode(email = ALICE.email, callback = app.callback) {
    const secrets = appLoginSecrets();
    const answer = await appLoginWithFetch(new CookieJar(), platform, callback, email, secrets);
    expect(answer.status).toBe(302);
    const location = new URL(answer.headers.get('location') ?? '');
    expect(`${location.origin}${location.pathname}`).toBe(callback);
    return {
      code: location.searchParams.get('code') ?? '',
      state: location.searchParams.get('state'),
      sent: secrets,
      verifier: secrets.verifier,
    };
  }

  const exchange = ({ code, verifier }: { code: string; verifier: string }, of: RegisteredApp = newcomer) =>
    postJson(platform, '/api/v1/auth/exchange', { code, codeVerifier: verifier, ...credentials(of) });
  const tokensOf = async (of: RegisteredApp = newcomer) => {
    const response = await exchange(
      await loginCode(undefined, of === spa ? spaApp.callback : app.callback),
      of,
    );
    expect(response.status).toBe(200);
    return (await response.json()) as AppTokens;
  };
  const refresh = (refreshToken: string, of: RegisteredApp = newcomer) =>
    postJson(platform, '/api/v1/auth/refresh', { refreshToken, ...credentials(of) });
  const validate = async (token: string) =>
    (await (await postJson(platform, '/api/v1/auth/validate', { token })).json()) as Record<string, unknown>;

  describe('GET /api/v1/auth/oidc/login', () => {
    it('sends the browser to the identity provider when return_to is a registered callback', async () => {
      const response = await new CookieJar().fetch(appLoginUrl(platform, app.callback, appLoginSecrets()));
      expect(response.status).toBe(302);
      expect(new URL(response.headers.get('location') ?? '').origin).toBe(platform.identityProvider?.issuer);
      expect(response.headers.getSetCookie().some((c) => c.startsWith(`${LOGIN_COOKIE}=`))).toBe(true);
    });

    it.each([
      ['another host', () => 'https://evil.example/auth/callback'],
      ['an unregistered path', () => app.callback.replace('/auth/callback', '/elsewhere')],
      ['an added query', () => `${app.callback}?next=https://evil.example`],
      ['javascript:', () => 'javascript:alert(document.cookie)'],
      ['a protocol-relative URL', () => app.callback.replace(/^http:/, '')],
      ['a path on the backend', () => '/health'],
      ['nothing', () => ''],
    ])('refuses return_to of %s with a 400 page, no redirect and no cookie', async (_, returnTo) => {
      const response = await new CookieJar().fetch(appLoginUrl(platform, returnTo(), appLoginSecrets()));
      expect(response.status).toBe(400);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.headers.get('location')).toBeNull();
      expect(response.headers.getSetCookie()).toEqual([]);
    });

    it.each([
      ['no code_challenge (the specification’s bare return_to)', { code_challenge_method: 'S256' }],
      ['the plain method', { code_challenge: 'x'.repeat(43), code_challenge_method: 'plain' }],
      ['a challenge that is no SHA-256 digest', { code_challenge: 'short', code_challenge_method: 'S256' }],
    ])('refuses %s with a 400 page, for every app: PKCE is required', async (_, pkce) => {
      for (const callback of [app.callback, spaApp.callback]) {
        const query = new URLSearchParams({ return_to: callback, ...pkce });
        const response = await new CookieJar().fetch(`${platform.baseUrl}/api/v1/auth/oidc/login?${query}`);
        expect(response.status).toBe(400);
        expect(response.headers.get('location')).toBeNull();
        expect(response.headers.getSetCookie()).toEqual([]);
        expect(await response.text()).toContain('code_challenge');
      }
    });

    it('goes back to the app callback with a one-time code and the app’s state, never a token', async () => {
      const login = await loginCode();
      expect(login.code).toMatch(/^plat_lc_[A-Za-z0-9_-]{43}$/);
      expect(login.state).toBe(login.sent.state);
      const tokens = (await (await exchange(login)).json()) as AppTokens;
      expect(login.code).not.toContain(tokens.accessToken.slice(0, 20));
    });
  });

  describe('POST /api/v1/auth/exchange', () => {
    it("answers the user's tokens for the app, with every scope it declared", async () => {
      const response = await exchange(await loginCode(BOB.email));
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
      const tokens = (await response.json()) as AppTokens;
      expect(tokens).toEqual({
        accessToken: expect.any(String),
        refreshToken: expect.any(String),
        tokenType: 'Bearer',
        expiresIn: 3600,
        scope: 'jobs.read files.read',
      });
      await expect(validate(tokens.accessToken)).resolves.toMatchObject({
        active: true,
        client_id: 'newcomer',
        tenant: BOB.tenant,
        roles: BOB.roles,
      });
    });

    it('refuses a code used twice, and revokes the tokens of its first use', async () => {
      const login = await loginCode();
      const first = (await (await exchange(login)).json()) as AppTokens;
      const replay = await exchange(login);
      expect(replay.status).toBe(400);
      expect(await replay.json()).toMatchObject({ error: 'invalid_grant' });
      const deadline = Date.now() + 3000;
      while ((await validate(first.accessToken)).active !== false && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await expect(validate(first.accessToken)).resolves.toEqual({ active: false });
    });

    it('refuses an unknown code, and a missing one', async () => {
      expect((await exchange({ code: 'x'.repeat(43), verifier: 'v'.repeat(43) })).status).toBe(400);
      const missing = await postJson(platform, '/api/v1/auth/exchange', credentials(newcomer));
      expect(missing.status).toBe(400);
      expect(await missing.json()).toMatchObject({ error: 'invalid_request' });
    });

    it('refuses a code without its verifier', async () => {
      const { code } = await loginCode();
      const response = await postJson(platform, '/api/v1/auth/exchange', { code, ...credentials(newcomer) });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: 'invalid_request' });
    });

    it('refuses a code with a wrong verifier, and the code is burnt', async () => {
      const login = await loginCode();
      const wrong = await exchange({ code: login.code, verifier: appLoginSecrets().verifier });
      expect(wrong.status).toBe(400);
      expect(await wrong.json()).toMatchObject({ error: 'invalid_grant' });
      expect((await exchange(login)).status).toBe(400);
    });

    it('refuses an app that holds a secret and does not send it (invalid_client); the code stays usable', async () => {
      const login = await loginCode();
      const body = { code: login.code, codeVerifier: login.verifier };
      for (const refused of [{ ...body, clientId: 'newcomer' }, body]) {
        const response = await postJson(platform, '/api/v1/auth/exchange', refused);
        expect(response.status).toBe(401);
        expect(await response.json()).toMatchObject({ error: 'invalid_client' });
      }
      // The secret as HTTP Basic, as at the token endpoint.
      const withBasic = await postJson(platform, '/api/v1/auth/exchange', body, {
        authorization: basic('newcomer', newcomer.client_secret!),
      });
      expect(withBasic.status).toBe(200);
    });

    it('exchanges the code of an app without a secret (spa) by its client_id and verifier', async () => {
      await expect(tokensOf(spa)).resolves.toMatchObject({ scope: 'jobs.read' });
    });

    it("refuses another app's code, even when that app authenticates", async () => {
      const response = await exchange(await loginCode(), spa);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: 'invalid_grant' });
    });

    it('is not an authorization code: /v1/oauth/token refuses it, even with its verifier', async () => {
      const login = await loginCode();
      const response = await postForm(`${platform.baseUrl}/v1/oauth/token`, {
        grant_type: 'authorization_code',
        client_id: 'newcomer',
        client_secret: newcomer.client_secret!,
        code: login.code,
        redirect_uri: app.callback,
        code_verifier: login.verifier,
      });
      expect(response.status).toBe(400);
    });
  });

  describe('POST /api/v1/auth/refresh', () => {
    it('rotates, and a rotated refresh token presented again revokes the family', async () => {
      const first = await tokensOf();
      const response = await refresh(first.refreshToken);
      expect(response.status).toBe(200);
      const second = (await response.json()) as AppTokens;
      expect(second.refreshToken).not.toBe(first.refreshToken);
      expect(second.scope).toBe('jobs.read files.read');

      const reuse = await refresh(first.refreshToken);
      expect(reuse.status).toBe(400);
      expect(await reuse.json()).toMatchObject({ error: 'invalid_grant' });
      expect((await refresh(second.refreshToken)).status).toBe(400);
    });

    it('refuses the refresh token of an app that holds a secret without it (invalid_client)', async () => {
      const { refreshToken } = await tokensOf();
      for (const refused of [{ refreshToken, clientId: 'newcomer' }, { refreshToken }]) {
        const response = await postJson(platform, '/api/v1/auth/refresh', refused);
        expect(response.status).toBe(401);
        expect(await response.json()).toMatchObject({ error: 'invalid_client' });
      }
      expect((await refresh(refreshToken)).status).toBe(200);
    });

    it("refreshes an app without a secret by its client_id, and refuses another app's token", async () => {
      expect((await refresh((await tokensOf(spa)).refreshToken, spa)).status).toBe(200);
      const response = await refresh((await tokensOf()).refreshToken, spa);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: 'invalid_grant' });
    });
  });

  describe('rate limits of the exchange and the refresh', () => {
    it('counts failed authentications as the token endpoint does: once over, 429 also for the right secret', async () => {
      // The default: 10 failures per client and address in 15 minutes (docs/rate-limits.md).
      const limited = await registerApp(platform, admin, {
        client_id: 'newcomer-limited',
        app_type: 'web',
        redirect_uris: ['https://limited.example/auth/callback'],
      });
      const guess = { code: 'plat_lc_x', codeVerifier: 'v'.repeat(43), clientId: limited.client_id };
      for (let i = 0; i < 10; i++) {
        const path = i % 2 === 0 ? '/api/v1/auth/exchange' : '/api/v1/auth/refresh';
        const response = await postJson(platform, path, { ...guess, clientSecret: 'a-wrong-guess' });
        expect(response.status).toBe(401);
      }
      for (const path of ['/api/v1/auth/exchange', '/api/v1/auth/refresh', '/v1/oauth/token']) {
        const refused =
          path === '/v1/oauth/token'
            ? await postForm(
                `${platform.baseUrl}${path}`,
                { grant_type: 'refresh_token', refresh_token: 'plat_rt_x' },
                { authorization: basic(limited.client_id, limited.client_secret!) },
              )
            : await postJson(platform, path, { ...guess, ...credentials(limited) });
        expect(refused.status).toBe(429);
        expect(refused.headers.get('cache-control')).toBe('no-store');
        expect(refused.headers.get('ratelimit-policy')).toBe('"failed-auth-client";q=10;w=900');
        expect(await refused.json()).toMatchObject({ error: 'temporarily_unavailable' });
      }
    });
  });

  describe('GET and POST /api/v1/auth/validate', () => {
    it('answers the claims of a valid token in both forms', async () => {
      const tokens = (await (await exchange(await loginCode())).json()) as AppTokens;
      const viaGet = await fetch(
        `${platform.baseUrl}/api/v1/auth/validate?token=${encodeURIComponent(tokens.accessToken)}`,
      );
      expect(viaGet.status).toBe(200);
      const claims = (await viaGet.json()) as Record<string, unknown>;
      expect(claims).toEqual({
        active: true,
        sub: expect.any(String),
        client_id: 'newcomer',
        scope: 'jobs.read files.read',
        tenant: ALICE.tenant,
        roles: ALICE.roles,
        exp: expect.any(Number),
      });
      await expect(validate(tokens.accessToken)).resolves.toEqual(claims);
    });

    it('answers {active: false} for a token it refuses, and 400 without a token', async () => {
      await expect(validate('not-a-token')).resolves.toEqual({ active: false });
      expect((await fetch(`${platform.baseUrl}/api/v1/auth/validate`)).status).toBe(400);
    });
  });

  describe('POST /api/v1/auth/revoke', () => {
    const revoke = (token?: string) =>
      fetch(`${platform.baseUrl}/api/v1/auth/revoke`, {
        method: 'POST',
        headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
      });

    it('revokes the Bearer token itself, at once', async () => {
      const tokens = (await (await exchange(await loginCode())).json()) as AppTokens;
      const response = await revoke(tokens.accessToken);
      expect(response.status).toBe(200);
      await expect(validate(tokens.accessToken)).resolves.toEqual({ active: false });
    });

    it('answers 200 for an expired or unknown token, and 401 without one', async () => {
      const now = Math.floor(Date.now() / 1000);
      const expired = await signWithPlatformKey(platform, {
        iss: platform.baseUrl,
        aud: platform.baseUrl,
        sub: 'someone',
        client_id: 'newcomer',
        scope: 'jobs.read',
        jti: `expired-${now}`,
        iat: now - 7200,
        exp: now - 3600,
      });
      expect((await revoke(expired)).status).toBe(200);
      expect((await revoke('unknown.token.value')).status).toBe(200);
      expect((await revoke()).status).toBe(401);
    });
  });

  describe('POST /api/v1/auth/token', () => {
    it('issues a client_credentials token as /v1/oauth/token does', async () => {
      const response = await postForm(`${platform.baseUrl}/api/v1/auth/token`, {
        grant_type: 'client_credentials',
        client_id: platform.admin.clientId,
        client_secret: platform.admin.clientSecret,
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(await response.json()).toMatchObject({
        token_type: 'Bearer',
        expires_in: 3600,
        scope: 'admin.*',
      });
    });

    it.each(['authorization_code', 'refresh_token', 'password'])(
      'refuses grant_type=%s',
      async (grantType) => {
        const response = await postForm(`${platform.baseUrl}/api/v1/auth/token`, {
          grant_type: grantType,
          client_id: 'newcomer',
        });
        expect(response.status).toBe(400);
        expect(await response.json()).toMatchObject({ error: 'unsupported_grant_type' });
      },
    );

    it('refuses wrong credentials as the token endpoint does', async () => {
      const response = await postForm(`${platform.baseUrl}/api/v1/auth/token`, {
        grant_type: 'client_credentials',
        client_id: platform.admin.clientId,
        client_secret: 'wrong',
      });
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ error: 'invalid_client' });
    });
  });
});
