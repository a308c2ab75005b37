import type { Browser } from 'playwright-core';
import { describeInBrowser, launchChromium } from '../../support/browser';
import { ALICE, DEMO_PASSWORD } from '../../support/browser-login';
import { adminToken, discover, type RegisteredApp, registerApp } from '../../support/oauth';
import { startPlatform, type TestPlatform } from '../../support/platform';
import { appLoginSecrets, appLoginUrl, type AppTokens, postJson, startApp } from './helpers';

describeInBrowser('GET /api/v1/auth/oidc/login in a real browser', () => {
  let platform: TestPlatform;
  let browser: Browser;
  let app: Awaited<ReturnType<typeof startApp>>;
  let newcomer: RegisteredApp;

  beforeAll(async () => {
    platform = await startPlatform({ withIdentityProvider: true });
    app = await startApp();
    const admin = await adminToken(await discover(platform), platform);
    newcomer = await registerApp(platform, admin, {
      client_id: 'newcomer',
      name: 'Newcomer app',
      app_type: 'web',
      declared_scopes: ['jobs.read', 'files.read'],
      redirect_uris: [app.callback],
    });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await platform?.stop();
  });

  const validate = async (token: string) =>
    (await (await postJson(platform, '/api/v1/auth/validate', { token })).json()) as Record<string, unknown>;

  it('signs Alice in and hands the app a code, never a token in a URL; the app exchanges, validates, refreshes and revokes', async () => {
    const context = await browser.newContext();
    const visited: string[] = [];
    try {
      const page = await context.newPage();
      page.on('request', (request) => visited.push(request.url()));
      const landing = app.next();
      const secrets = appLoginSecrets();

      await page.goto(appLoginUrl(platform, app.callback, secrets).href);
      await page.getByLabel('Email').fill(ALICE.email);
      await page.getByLabel('Password').fill(DEMO_PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      const callback = await landing;
      await page.waitForURL((url) => url.href.startsWith(app.callback));

      expect(`${callback.origin}${callback.pathname}`).toBe(app.callback);
      expect([...callback.searchParams.keys()]).toEqual(['code', 'state']);
      expect(callback.searchParams.get('state')).toBe(secrets.state);

      // The app's server swaps the code, server to server, with its verifier and secret.
      const client = { clientId: 'newcomer', clientSecret: newcomer.client_secret };
      const exchanged = await postJson(platform, '/api/v1/auth/exchange', {
        code: callback.searchParams.get('code'),
        codeVerifier: secrets.verifier,
        ...client,
      });
      expect(exchanged.status).toBe(200);
      const tokens = (await exchanged.json()) as AppTokens;
      for (const url of visited) {
        expect(url).not.toContain(tokens.accessToken);
        expect(url).not.toContain(tokens.refreshToken);
      }

      await expect(validate(tokens.accessToken)).resolves.toMatchObject({
        active: true,
        client_id: 'newcomer',
        tenant: ALICE.tenant,
        roles: ALICE.roles,
      });

      const refreshed = await postJson(platform, '/api/v1/auth/refresh', {
        refreshToken: tokens.refreshToken,
        ...client,
      });
      expect(refreshed.status).toBe(200);
      const next = (await refreshed.json()) as AppTokens;
      await expect(validate(next.accessToken)).resolves.toMatchObject({ active: true });

      const revoked = await fetch(`${platform.baseUrl}/api/v1/auth/revoke`, {
        method: 'POST',
        headers: { authorization: `Bearer ${next.accessToken}` },
      });
      expect(revoked.status).toBe(200);
      await expect(validate(next.accessToken)).resolves.toEqual({ active: false });
    } finally {
      await context.close();
    }
  });

  it('shows a 400 page and stays put for a return_to no app registered', async () => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const response = await page.goto(
        appLoginUrl(platform, 'https://evil.example/auth/callback', appLoginSecrets()).href,
      );
      expect(response?.status()).toBe(400);
      expect(new URL(page.url()).origin).toBe(platform.baseUrl);
      await page.getByRole('heading', { name: 'This request cannot be processed' }).waitFor();
    } finally {
      await context.close();
    }
  });
});
