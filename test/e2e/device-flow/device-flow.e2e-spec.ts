import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import * as client from 'openid-client';
import type { Browser } from 'playwright-core';
import { describeInBrowser, launchChromium } from '../../support/browser';
import { ALICE, BOB, DEMO_PASSWORD, hiddenField, signInWithFetch } from '../../support/browser-login';
import { CookieJar } from '../../support/cookie-jar';
import { adminToken, discover, postForm, registerApp, type RegisteredApp } from '../../support/oauth';
import { startPlatform, type TestPlatform } from '../../support/platform';

const BIN = join(__dirname, '..', '..', '..', 'apps', 'cli', 'bin', 'platform.js');
const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
const APP_NAME = 'Device Flow CLI';

/** RFC 8628 end to end: `platform login` and a real browser, the polling errors, the guessing limit. */
describeInBrowser('the device flow (RFC 8628)', () => {
  let platform: TestPlatform;
  let browser: Browser;
  let cli: RegisteredApp;
  let otherCli: RegisteredApp;
  let web: RegisteredApp;
  let config: client.Configuration;

  beforeAll(async () => {
    platform = await startPlatform({ withIdentityProvider: true });
    const admin = await adminToken(await discover(platform), platform);
    const register = (client_id: string, app_type: string, name = client_id) =>
      registerApp(platform, admin, {
        client_id,
        name,
        app_type,
        declared_scopes: ['jobs.read', 'files.read'],
        redirect_uris: app_type === 'cli' ? ['http://127.0.0.1/callback'] : ['https://portal.example/cb'],
      } as never);
    [cli, otherCli, web] = await Promise.all([
      register('device-cli', 'cli', APP_NAME),
      register('device-other-cli', 'cli'),
      register('device-web', 'web'),
    ]);
    // The device's view of the platform: RFC 8414 discovery and its secret (openid-client).
    config = await client.discovery(
      new URL(platform.baseUrl),
      cli.client_id,
      undefined,
      client.ClientSecretPost(cli.client_secret ?? ''),
      { algorithm: 'oauth2', execute: [client.allowInsecureRequests] },
    );
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
  });

  const tokenUrl = () => `${platform.baseUrl}/v1/oauth/token`;
  const poll = (deviceCode: string, app: RegisteredApp = cli) =>
    postForm(tokenUrl(), {
      grant_type: DEVICE_GRANT,
      device_code: deviceCode,
      client_id: app.client_id,
      client_secret: app.client_secret ?? '',
    });
  const expectOAuthError = async (response: Response, status: number, error: string) => {
    expect({ status: response.status, body: await response.json() }).toMatchObject({
      status,
      body: { error },
    });
    expect(response.headers.get('cache-control')).toBe('no-store');
  };

  /** A browser session of `email` through the identity provider, driven with fetch. */
  async function signedIn(email: string): Promise<CookieJar> {
    const jar = new CookieJar();
    expect((await signInWithFetch(jar, platform, email)).status).toBe(302);
    return jar;
  }

  /** Enters `userCode` on the verification page of the session in `jar`: the answer. */
  async function enterCode(jar: CookieJar, userCode: string): Promise<Response> {
    const form = await jar.fetch(`${platform.baseUrl}/device`);
    expect(form.status).toBe(200);
    return jar.fetch(`${platform.baseUrl}/device`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        user_code: userCode,
        csrf_token: hiddenField(await form.text(), 'csrf_token') ?? '',
      }),
    });
  }

  /** Enters the code and answers the consent page. */
  async function answer(jar: CookieJar, userCode: string, decision: 'approve' | 'deny'): Promise<Response> {
    const consent = await enterCode(jar, userCode);
    expect(consent.status).toBe(200);
    const page = await consent.text();
    return jar.fetch(`${platform.baseUrl}/device/decision`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        user_code: hiddenField(page, 'user_code') ?? '',
        csrf_token: hiddenField(page, 'csrf_token') ?? '',
        decision,
      }),
    });
  }

  /** `platform login`, its stderr read as it comes. */
  function login(args: string[] = []): {
    child: ChildProcess;
    prompt: Promise<{ uri: string; complete: string; userCode: string }>;
    done: Promise<{ code: number | null; stdout: string; stderr: string }>;
  } {
    const child = spawn(process.execPath, [BIN, 'login', '--json', ...args], {
      env: {
        PATH: process.env.PATH ?? '',
        PLATFORM_URL: platform.baseUrl,
        PLATFORM_CLIENT_ID: cli.client_id,
        PLATFORM_CLIENT_SECRET: cli.client_secret ?? '',
      },
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const prompt = new Promise<{ uri: string; complete: string; userCode: string }>((resolve, reject) => {
      child.stderr?.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        const match = /open (\S+) and enter the code (\S+)\n\(or open (\S+)\)/.exec(stderr);
        if (match) resolve({ uri: match[1], userCode: match[2], complete: match[3] });
      });
      child.on('exit', () => reject(new Error(`platform login ended: ${stderr}`)));
    });
    const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
      child.on('exit', (code) => resolve({ code, stdout, stderr })),
    );
    return { child, prompt, done };
  }

  it('advertises the device authorization endpoint and grant (RFC 8414)', () => {
    const metadata = config.serverMetadata();
    expect(metadata.device_authorization_endpoint).toBe(`${platform.baseUrl}/v1/oauth/device_authorization`);
    expect(metadata.grant_types_supported).toContain(DEVICE_GRANT);
  });

  it('signs the CLI in: the user opens the address in a browser, signs in, checks the code and approves', async () => {
    const run = login(['--scopes', 'jobs.read']);
    try {
      const { uri, complete, userCode } = await run.prompt;
      expect(uri).toBe(`${platform.baseUrl}/device`);
      expect(userCode).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);

      const context = await browser.newContext();
      try {
        const page = await context.newPage();
        await page.goto(complete);
        // No session yet: the platform's login, at the identity provider, then back here.
        await page.getByLabel('Email').fill(ALICE.email);
        await page.getByLabel('Password').fill(DEMO_PASSWORD);
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.getByRole('heading', { name: 'Connect a device' }).waitFor();
        expect(await page.getByLabel('Code').inputValue()).toBe(userCode);
        await page.getByRole('button', { name: 'Continue' }).click();

        await page.getByRole('heading', { name: new RegExp(APP_NAME) }).waitFor();
        expect(await page.getByText('List and view job executions').count()).toBe(1);
        expect(await page.getByText(`your device shows the code ${userCode}`).count()).toBe(1);
        await page.getByRole('button', { name: 'Approve', exact: true }).click();
        await page.getByRole('heading', { name: 'Device connected' }).waitFor();
      } finally {
        await context.close();
      }

      const { code, stdout, stderr } = await run.done;
      expect({ code, stderr }).toMatchObject({ code: 0, stderr: expect.stringContaining('Signed in.') });
      const tokens = JSON.parse(stdout) as { access_token: string; refresh_token: string; scope: string };
      expect(tokens).toMatchObject({
        token_type: 'Bearer',
        scope: 'jobs.read',
        refresh_token: expect.any(String),
      });
      const { payload } = await jwtVerify(
        tokens.access_token,
        createRemoteJWKSet(new URL(`${platform.baseUrl}/v1/jwks`)),
        { issuer: platform.baseUrl, audience: platform.baseUrl, typ: 'at+jwt' },
      );
      expect(payload).toMatchObject({ client_id: cli.client_id, tenant: ALICE.tenant, roles: ALICE.roles });
      const me = await fetch(`${platform.baseUrl}/v1/me`, {
        headers: { authorization: `Bearer ${tokens.access_token}` },
      });
      expect(await me.json()).toMatchObject({ sub: payload.sub, tenant: ALICE.tenant });
    } finally {
      run.child.kill();
    }
  });

  it('answers authorization_pending, then slow_down to a device polling too fast', async () => {
    const device = await client.initiateDeviceAuthorization(config, { scope: 'jobs.read' });
    expect(device).toMatchObject({ expires_in: 600, interval: 5 });

    await expectOAuthError(await poll(device.device_code), 400, 'authorization_pending');
    await expectOAuthError(await poll(device.device_code), 400, 'slow_down');
  });

  it('tells a device access_denied when the user denies (openid-client polling)', async () => {
    const device = await client.initiateDeviceAuthorization(config, {});
    const denied = await answer(await signedIn(BOB.email), device.user_code, 'deny');
    expect(denied.status).toBe(200);
    expect(await denied.text()).toContain('Request denied');

    await expect(client.pollDeviceAuthorizationGrant(config, device)).rejects.toMatchObject({
      error: 'access_denied',
    });
  });

  it('issues the tokens once: the device code again is invalid_grant, as is another client presenting it', async () => {
    const device = await client.initiateDeviceAuthorization(config, {});
    await expectOAuthError(await poll(device.device_code, otherCli), 400, 'invalid_grant');
    expect((await answer(await signedIn(BOB.email), device.user_code, 'approve')).status).toBe(200);

    const issued = await poll(device.device_code);
    expect(issued.status).toBe(200);
    await expectOAuthError(await poll(device.device_code), 400, 'invalid_grant');
  });

  it('answers expired_token once the code expired, and the page no longer takes its user code', async () => {
    const device = await client.initiateDeviceAuthorization(config, {});
    const db = new Database(join(platform.dataDir, 'platform.sqlite'));
    try {
      db.prepare('UPDATE device_authorizations SET expires_at = ? WHERE client_id = ? AND status = ?').run(
        Date.now() - 1000,
        cli.client_id,
        'pending',
      );
    } finally {
      db.close();
    }

    await expectOAuthError(await poll(device.device_code), 400, 'expired_token');
    const page = await enterCode(await signedIn(BOB.email), device.user_code);
    expect(page.status).toBe(400);
    expect(await page.text()).toContain('That code is not valid');
  });

  it('refuses the device flow to a web app with unauthorized_client', async () => {
    const response = await postForm(`${platform.baseUrl}/v1/oauth/device_authorization`, {
      client_id: web.client_id,
      client_secret: web.client_secret ?? '',
    });
    await expectOAuthError(response, 400, 'unauthorized_client');
  });

  it('limits guessing: after 5 codes in a minute a session is refused even the right one', async () => {
    const device = await client.initiateDeviceAuthorization(config, {});
    const jar = await signedIn(ALICE.email);
    for (const wrong of ['BCDF-GHJK', 'bcdf-ghjl', 'BCDFGHJM', 'XXXX-XXXX', 'not-a-code']) {
      const refused = await enterCode(jar, wrong);
      expect(refused.status).toBe(400);
      expect(await refused.text()).toContain('That code is not valid');
    }

    const limited = await enterCode(jar, device.user_code);
    expect(limited.status).toBe(429);
    expect(await limited.text()).toMatch(/Too many codes were entered\. Wait \d+ seconds/);
    // Another session (same address, under its own limit) still gets the consent page.
    expect((await enterCode(await signedIn(BOB.email), device.user_code)).status).toBe(200);
  });
});
