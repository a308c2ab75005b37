import { CookieJar } from '../../support/cookie-jar';
import { ALICE, BOB, LOGIN_COOKIE } from '../../support/browser-login';
import { adminToken, discover, postForm, registerApp } from '../../support/oauth';
import { startPlatform, type TestPlatform } from '../../support/platform';
import { signWithPlatformKey } from '../../support/tokens';
import { appLoginWithFetch, type AppTokens, postJson, startApp } from './helpers';

describe('/api/v1/auth (app login of the user-forwarding model)', () => {
  let platform: TestPlatform;
  let app: Awaited<ReturnType<typeof startApp>>;

  beforeAll(async () => {
    platform = await startPlatform({ withIdentityProvider: true });
    app = await startApp();
    const admin = await adminToken(await discover(platform), platform);
    await registerApp(platform, admin, {
      client_id: 'newcomer',
      name: 'Newcomer app',
      app_type: 'web',
      declared_scopes: ['jobs.read', 'files.read'],
      redirect_uris: [app.callback],
    });
  });
  afterAll(async () => {
    await app?.close();
    await platform?.stop();
  });

  /** Signs the user in through the app login and answers the login code the app receives. */
  async function loginCode(email = ALICE.email): Promise<string> {
    const callback = await appLoginWithFetch(new CookieJar(), platform, app.callback, email);
    expect(callback.status).toBe(302);
    const location = new URL(callback.headers.get('location') ?? '');
    expect(`${location.origin}${location.pathname}`).toBe(app.callback);
    return location.searchParams.get('code') ?? '';
  }

  const exchange = (code: string) => postJson(platform, '/api/v1/auth/exchange', { code });
  const validate = async (token: string) =>
    (await (await postJson(platform, '/api/v1/auth/validate', { token })).json()) as Record<string, unknown>;

  describe('GET /api/v1/auth/oidc/login', () => {
    it('sends the browser to the identity provider when return_to is a registered callback', async () => {
      const response = await new CookieJar().fetch(
        `${platform.baseUrl}/api/v1/auth/oidc/login?return_to=${encodeURIComponent(app.callback)}`,
      );
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
      const response = await new CookieJar().fetch(
        `${platform.baseUrl}/api/v1/auth/oidc/login?return_to=${encodeURIComponent(returnTo())}`,
      );
      expect(response.status).toBe(400);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.headers.get('location')).toBeNull();
      expect(response.headers.getSetCookie()).toEqual([]);
    });

    it('goes back to the app callback with a one-time code and never a token', async () => {
      const code = await loginCode();
      expect(code).toMatch(/^plat_lc_[A-Za-z0-9_-]{43}$/);
      const tokens = (await (await exchange(code)).json()) as AppTokens;
      expect(code).not.toContain(tokens.accessToken.slice(0, 20));
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
      const code = await loginCode();
      const first = (await (await exchange(code)).json()) as AppTokens;
      const replay = await exchange(code);
      expect(replay.status).toBe(400);
      expect(await replay.json()).toMatchObject({ error: 'invalid_grant' });
      const deadline = Date.now() + 3000;
      while ((await validate(first.accessToken)).active !== false && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await expect(validate(first.accessToken)).resolves.toEqual({ active: false });
    });

    it('refuses an unknown code, and a missing one', async () => {
      expect((await exchange('x'.repeat(43))).status).toBe(400);
      const missing = await postJson(platform, '/api/v1/auth/exchange', {});
      expect(missing.status).toBe(400);
      expect(await missing.json()).toMatchObject({ error: 'invalid_request' });
    });

    it('is not an authorization code: /v1/oauth/token refuses it', async () => {
      const code = await loginCode();
      const response = await postForm(`${platform.baseUrl}/v1/oauth/token`, {
        grant_type: 'authorization_code',
        client_id: 'newcomer',
        code,
        redirect_uri: app.callback,
        code_verifier: 'v'.repeat(43),
      });
      expect(response.status).toBe(400);
    });
  });

  describe('POST /api/v1/auth/refresh', () => {
    it('rotates, and a rotated refresh token presented again revokes the family', async () => {
      const first = (await (await exchange(await loginCode())).json()) as AppTokens;
      const response = await postJson(platform, '/api/v1/auth/refresh', { refreshToken: first.refreshToken });
      expect(response.status).toBe(200);
      const second = (await response.json()) as AppTokens;
      expect(second.refreshToken).not.toBe(first.refreshToken);
      expect(second.scope).toBe('jobs.read files.read');

      const reuse = await postJson(platform, '/api/v1/auth/refresh', { refreshToken: first.refreshToken });
      expect(reuse.status).toBe(400);
      expect(await reuse.json()).toMatchObject({ error: 'invalid_grant' });
      const again = await postJson(platform, '/api/v1/auth/refresh', { refreshToken: second.refreshToken });
      expect(again.status).toBe(400);
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
