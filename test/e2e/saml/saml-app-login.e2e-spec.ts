import { randomUUID } from 'node:crypto';
import {
  assertionXml,
  base64,
  idpMetadata,
  responseXml,
  signRoot,
  testSigningKey,
  type TestSigningKey,
} from '../../../libs/domain/src/testing/saml-test-idp';
import { SESSION_COOKIE } from '../../support/browser-login';
import { CookieJar } from '../../support/cookie-jar';
import { adminToken, discover, registerApp, type RegisteredApp } from '../../support/oauth';
import { sharedPlatform, type TestPlatform } from '../../support/platform';
import { postToAcs, registerIdentityProvider, requestIdOf, tenantAdminToken } from '../../support/saml';
import {
  appLoginSecrets,
  type AppLoginSecrets,
  appLoginUrl,
  type AppTokens,
  postJson,
  startApp,
} from '../app-login/helpers';

/**
 * The app login family through a tenant's SAML IdP (docs/saml.md, "app login"): the app sends
 * the browser to `/api/v1/auth/saml/{tenant}/login` with its callback, PKCE challenge and state;
 * the IdP's signed Response comes back to the ACS, the browser lands on the app's callback with a
 * one-time code and the state, and the app redeems the code with its verifier at
 * `/api/v1/auth/exchange` as after the OpenID Connect app login. The Response is signed in the
 * test by the attack corpus's IdP (xml-crypto) with a key the tenant registered over REST.
 */
describe('GET /api/v1/auth/saml/{tenant}/login: the app login through the tenant’s SAML IdP', () => {
  const suffix = randomUUID().slice(0, 8);
  const tenant = `saml-app-${suffix}`;
  const entityId = `https://idp-${suffix}.example/saml`;
  const ssoUrl = `https://idp-${suffix}.example/sso`;
  const email = `ada-${suffix}@example.com`;
  let platform: TestPlatform;
  let key: TestSigningKey;
  let app: Awaited<ReturnType<typeof startApp>>;
  let portal: RegisteredApp;
  let admin: string;

  beforeAll(async () => {
    key = testSigningKey('idp');
    platform = sharedPlatform();
    app = await startApp();
    const adminOfTenant = await tenantAdminToken(platform, tenant, suffix);
    const registered = await registerIdentityProvider(platform, adminOfTenant, tenant, {
      metadata_xml: idpMetadata(entityId, ssoUrl, [key.certificate]),
      role_mapping: { auditors: 'viewer' },
    });
    expect(registered.status).toBe(201);
    admin = await adminToken(await discover(platform), platform);
    portal = await registerApp(platform, admin, {
      client_id: `saml-app-portal-${suffix}`,
      name: 'SAML app-login portal',
      app_type: 'web',
      declared_scopes: ['jobs.read'],
      redirect_uris: [app.callback],
    });
  });

  afterAll(async () => {
    await app?.close();
  });

  /** The app login's start as appLoginUrl builds it, on the SAML route of `of`. */
  const samlAppLoginUrl = (returnTo: string, secrets = appLoginSecrets(), of = tenant) => {
    const url = appLoginUrl(platform, returnTo, secrets);
    url.pathname = `/api/v1/auth/saml/${of}/login`;
    return url;
  };

  /** The IdP's answer to `requestId`: Ada, in the auditors group, in an assertion it signed. */
  const signedResponse = (requestId: string) => {
    const acsUrl = `${platform.baseUrl}/saml/${tenant}/acs`;
    const assertion = assertionXml({
      issuer: entityId,
      nameId: `ada-${suffix}`,
      audience: `${platform.baseUrl}/saml/${tenant}/metadata`,
      recipient: acsUrl,
      inResponseTo: requestId,
      attributes: { email: [email], groups: ['auditors'] },
    });
    return base64(
      responseXml({
        issuer: entityId,
        destination: acsUrl,
        inResponseTo: requestId,
        assertion: signRoot(assertion, { key }),
      }),
    );
  };

  /** The browser leaves for the IdP: the AuthnRequest's ID, from the redirect to its SSO URL. */
  async function leaveForIdp(jar: CookieJar, secrets: AppLoginSecrets): Promise<string> {
    const start = await jar.fetch(samlAppLoginUrl(app.callback, secrets));
    expect(start.status).toBe(302);
    const toIdp = start.headers.get('location') ?? '';
    expect(toIdp.startsWith(`${ssoUrl}?SAMLRequest=`)).toBe(true);
    return requestIdOf(toIdp);
  }

  /** A whole login in one browser, up to what the app's callback receives. */
  async function loginAtApp(jar = new CookieJar()) {
    const secrets = appLoginSecrets();
    const requestId = await leaveForIdp(jar, secrets);
    const acs = await postToAcs(platform.baseUrl, jar, tenant, signedResponse(requestId));
    expect(acs.status).toBe(302);
    const landed = app.next();
    await jar.fetch(acs.headers.get('location') ?? '');
    const callback = await landed;
    return { callback, secrets, code: callback.searchParams.get('code') ?? '' };
  }

  const exchange = (code: string, verifier: string) =>
    postJson(platform, '/api/v1/auth/exchange', {
      code,
      codeVerifier: verifier,
      clientId: portal.client_id,
      clientSecret: portal.client_secret,
    });

  /** What a refused start answers: a 400 or 404 page, no redirect, no cookie. */
  async function expectPage(url: URL, status: number): Promise<string> {
    const response = await new CookieJar().fetch(url);
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('location')).toBeNull();
    expect(response.headers.getSetCookie()).toEqual([]);
    return response.text();
  }

  it('signs the user in at the tenant’s IdP, lands on the app’s callback with a code and its state, and the code with the verifier is the SAML user’s tokens', async () => {
    const jar = new CookieJar();
    const { callback, secrets, code } = await loginAtApp(jar);
    expect(`${callback.origin}${callback.pathname}`).toBe(app.callback);
    expect([...callback.searchParams.keys()]).toEqual(['code', 'state']);
    expect(callback.searchParams.get('state')).toBe(secrets.state);
    expect(code).toMatch(/^plat_lc_[A-Za-z0-9_-]{43}$/);
    expect(jar.get(platform.baseUrl, SESSION_COOKIE)).toBeDefined();

    const response = await exchange(code, secrets.verifier);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const tokens = (await response.json()) as AppTokens;
    expect(tokens).toEqual({
      accessToken: expect.any(String),
      refreshToken: expect.any(String),
      tokenType: 'Bearer',
      expiresIn: 3600,
      scope: 'jobs.read',
    });
    const claims = (await (
      await postJson(platform, '/api/v1/auth/validate', { token: tokens.accessToken })
    ).json()) as { sub: string };
    expect(claims).toMatchObject({ active: true, client_id: portal.client_id, tenant, roles: ['viewer'] });
    // The token's subject is the user the assertion named, in the IdP's tenant.
    const users = (await (
      await fetch(`${platform.baseUrl}/api/v1/tenants/${tenant}/users`, {
        headers: { authorization: `Bearer ${admin}` },
      })
    ).json()) as Array<{ id: string; email: string; tenant: string }>;
    expect(users).toContainEqual(expect.objectContaining({ id: claims.sub, email, tenant }));
  });

  it.each([
    ['another host', () => 'https://evil.example/auth/callback'],
    ['an unregistered path', () => app.callback.replace('/auth/callback', '/elsewhere')],
    ['an added query', () => `${app.callback}?next=https://evil.example`],
    ['a path on the backend', () => '/health'],
    ['nothing', () => ''],
  ])('refuses return_to of %s with a 400 page: no redirect, no cookie', async (_, returnTo) => {
    await expect(expectPage(samlAppLoginUrl(returnTo()), 400)).resolves.toContain('return_to');
  });

  it.each([
    ['no code_challenge', (query: URLSearchParams) => query.delete('code_challenge')],
    ['no method', (query: URLSearchParams) => query.delete('code_challenge_method')],
    ['the plain method', (query: URLSearchParams) => query.set('code_challenge_method', 'plain')],
    [
      'a challenge that is no SHA-256 digest',
      (query: URLSearchParams) => query.set('code_challenge', 'short'),
    ],
  ])('refuses %s with a 400 page: PKCE is required', async (_, spoil) => {
    const url = samlAppLoginUrl(app.callback);
    spoil(url.searchParams);
    await expect(expectPage(url, 400)).resolves.toContain('code_challenge');
  });

  it('answers a 404 page for a tenant without a SAML IdP, and for a name that is no tenant', async () => {
    for (const other of [`saml-app-none-${suffix}`, 'not%20a%20tenant']) {
      await expectPage(samlAppLoginUrl(app.callback, appLoginSecrets(), other), 404);
    }
  });

  it('never sends to the app’s callback a Response posted from another browser', async () => {
    const requestId = await leaveForIdp(new CookieJar(), appLoginSecrets());
    const elsewhere = new CookieJar();
    const response = await postToAcs(platform.baseUrl, elsewhere, tenant, signedResponse(requestId));
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
    expect(await response.text()).toContain('(in_response_to_mismatch)');
    expect(elsewhere.get(platform.baseUrl, SESSION_COOKIE)).toBeUndefined();
  });

  it('refuses the code redeemed twice', async () => {
    const { code, secrets } = await loginAtApp();
    expect((await exchange(code, secrets.verifier)).status).toBe(200);
    const replay = await exchange(code, secrets.verifier);
    expect(replay.status).toBe(400);
    expect(await replay.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('refuses the code with another verifier, and the code is burnt', async () => {
    const { code, secrets } = await loginAtApp();
    const wrong = await exchange(code, appLoginSecrets().verifier);
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({ error: 'invalid_grant' });
    expect((await exchange(code, secrets.verifier)).status).toBe(400);
  });
});
