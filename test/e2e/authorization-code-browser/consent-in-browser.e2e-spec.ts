import { createRemoteJWKSet, jwtVerify } from 'jose';
import * as client from 'openid-client';
import type { Browser, Page } from 'playwright-core';
import { describeInBrowser, launchChromium } from '../../support/browser';
import { adminToken, discover, registerApp } from '../../support/oauth';
import { startPlatform, type TestPlatform } from '../../support/platform';
import { ALICE, BOB, DEMO_PASSWORD, SESSION_COOKIE, startRedirectCatcher } from '../../support/browser-login';

const CLIENT_ID = 'acme-dashboard';
const APP_NAME = 'Acme Dashboard';

describeInBrowser('GET /oauth/authorize in a real browser', () => {
  let platform: TestPlatform;
  let browser: Browser;
  let catcher: Awaited<ReturnType<typeof startRedirectCatcher>>;
  let config: client.Configuration;

  beforeAll(async () => {
    platform = await startPlatform({ withIdentityProvider: true });
    catcher = await startRedirectCatcher();
    const admin = await adminToken(await discover(platform), platform);
    await registerApp(platform, admin, {
      client_id: CLIENT_ID,
      name: APP_NAME,
      app_type: 'spa',
      declared_scopes: ['jobs.read', 'files.read'],
      redirect_uris: [catcher.redirectUri],
    });
    // The application's own view of the platform: RFC 8414 discovery, a public client (no secret).
    config = await client.discovery(new URL(platform.baseUrl), CLIENT_ID, undefined, client.None(), {
      algorithm: 'oauth2',
      execute: [client.allowInsecureRequests],
    });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await catcher?.close();
    await platform?.stop();
  });

  /** The authorization request an SPA builds: PKCE S256 and a fresh state. */
  async function authorizationRequest() {
    const codeVerifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: catcher.redirectUri,
      scope: 'jobs.read files.read',
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state,
    });
    return { url, codeVerifier, state };
  }

  async function signInAtIdentityProvider(page: Page, email: string): Promise<void> {
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }

  async function verifyAccessToken(token: string) {
    const keys = createRemoteJWKSet(new URL(`${platform.baseUrl}/v1/jwks`));
    const { payload, protectedHeader } = await jwtVerify(token, keys, {
      issuer: platform.baseUrl,
      audience: platform.baseUrl,
      typ: 'at+jwt',
      algorithms: ['RS256'],
    });
    expect(protectedHeader.alg).toBe('RS256');
    return payload;
  }

  it('signs Alice in, shows the consent screen, and her approval becomes tokens that name her', async () => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const cspViolations: string[] = [];
      page.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
      });
      const { url, codeVerifier, state } = await authorizationRequest();

      await page.goto(url.href);
      await signInAtIdentityProvider(page, ALICE.email);

      await page.getByRole('heading', { name: new RegExp(APP_NAME) }).waitFor();
      expect(await page.getByText('List and view job executions').count()).toBe(1);
      expect(await page.getByText('Read file content and metadata').count()).toBe(1);
      expect(await page.getByText(ALICE.name, { exact: false }).count()).toBeGreaterThan(0);
      const session = (await context.cookies(platform.baseUrl)).find((c) => c.name === SESSION_COOKIE);
      expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });

      await page.getByRole('button', { name: 'Approve', exact: true }).click();
      const redirected = await catcher.next();
      expect(redirected.searchParams.get('state')).toBe(state);
      expect(redirected.searchParams.get('code')).toEqual(expect.any(String));
      // The stylesheet and the form post (and the redirect after it) were all allowed.
      expect(cspViolations).toEqual([]);

      // The application exchanges the code server-side with its verifier (openid-client).
      const tokens = await client.authorizationCodeGrant(config, redirected, {
        pkceCodeVerifier: codeVerifier,
        expectedState: state,
      });
      expect(tokens).toMatchObject({ token_type: expect.stringMatching(/^bearer$/i), expires_in: 3600 });
      const claims = await verifyAccessToken(tokens.access_token);
      expect(claims).toMatchObject({
        client_id: CLIENT_ID,
        tenant: ALICE.tenant,
        roles: ALICE.roles,
        scope: 'jobs.read files.read',
      });
      expect(claims.sub).toEqual(expect.any(String));
      expect(claims.sub).not.toBe(CLIENT_ID);

      const me = await fetch(`${platform.baseUrl}/v1/me`, {
        headers: { authorization: `Bearer ${tokens.access_token}` },
      });
      expect(await me.json()).toMatchObject({ sub: claims.sub, tenant: ALICE.tenant, roles: ALICE.roles });

      const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token ?? '');
      expect(refreshed.refresh_token).toEqual(expect.any(String));
      expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
      expect(await verifyAccessToken(refreshed.access_token)).toMatchObject({
        sub: claims.sub,
        tenant: ALICE.tenant,
        roles: ALICE.roles,
      });
    } finally {
      await context.close();
    }
  });

  it('sends Bob back with access_denied and the state when he clicks Deny', async () => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      const { url, state } = await authorizationRequest();

      await page.goto(url.href);
      await signInAtIdentityProvider(page, BOB.email);
      await page.getByRole('button', { name: 'Deny', exact: true }).click();

      const redirected = await catcher.next();
      expect(redirected.searchParams.get('error')).toBe('access_denied');
      expect(redirected.searchParams.get('state')).toBe(state);
      expect(redirected.searchParams.get('code')).toBeNull();
    } finally {
      await context.close();
    }
  });
});
