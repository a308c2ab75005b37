import type { LoggerService } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { PlatformConfig } from '@platform/config';
import { DomainError } from '@platform/domain';
import { createHttpApp } from '@platform/http';
import { BackendModule } from './backend.module';
import { registerCookieParser } from './browser/cookies';
import { CsrfTokens } from './browser/csrf';
import { deriveKey } from './browser/keys';
import { SealedBox } from './browser/sealed-box';
import { AuthorizationClient } from './clients/authorization.client';
import { ControlPlaneClient } from './clients/control-plane.client';
import { SessionsClient } from './clients/sessions.client';
import { SidecarClient } from './clients/sidecar.client';
import { IdentityProviderClient, type LoginTransaction } from './login/identity-provider.client';
import { LoginTransactions } from './login/login-transactions';
import {
  acceptedRequest,
  type FakeAuthorizationClient,
  fakeAuthorizationClient,
  fakeControlPlane,
  type FakeIdentityProvider,
  fakeIdentityProvider,
  type FakeSessionsClient,
  fakeSessionsClient,
  fakeSidecar,
  testConfig,
  userFactory,
  withProviders,
} from './testing/fakes';

const AUTHORIZE =
  '/oauth/authorize?client_id=dashboard&redirect_uri=https%3A%2F%2Fdashboard.example.com%2Fcallback' +
  '&response_type=code&scope=jobs.read&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM' +
  '&code_challenge_method=S256&state=xyz';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

interface Harness {
  app: NestFastifyApplication;
  authorization: FakeAuthorizationClient;
  sessions: FakeSessionsClient;
  identityProvider: FakeIdentityProvider;
  csrf: CsrfTokens;
  transactions: LoginTransactions;
}

async function harness(config: PlatformConfig): Promise<Harness> {
  const authorization = fakeAuthorizationClient();
  const sessions = fakeSessionsClient();
  const identityProvider = fakeIdentityProvider();
  const logger: LoggerService = { log: jest.fn(), error: jest.fn(), warn: jest.fn() };
  const module = withProviders(BackendModule.forRoot(config), [
    { provide: SidecarClient, useValue: fakeSidecar() },
    { provide: ControlPlaneClient, useValue: fakeControlPlane() },
    { provide: AuthorizationClient, useValue: authorization },
    { provide: SessionsClient, useValue: sessions },
    { provide: IdentityProviderClient, useValue: identityProvider },
  ]);
  const app = await createHttpApp(module, { logger });
  await registerCookieParser(app);
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  return {
    app,
    authorization,
    sessions,
    identityProvider,
    csrf: new CsrfTokens(deriveKey(config.sessionSecret(), 'csrf')),
    transactions: new LoginTransactions(
      new SealedBox(deriveKey(config.sessionSecret(), 'login-transaction'), 'login-transaction'),
    ),
  };
}

const setCookies = (headers: Record<string, unknown>): string[] => {
  const value = headers['set-cookie'];
  return value === undefined ? [] : Array.isArray(value) ? value : [String(value)];
};

const expectBrowserHeaders = (headers: Record<string, unknown>) => {
  expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
  expect(headers['x-frame-options']).toBe('DENY');
  expect(headers['cache-control']).toBe('no-store');
  expect(headers['referrer-policy']).toBe('no-referrer');
};

describe('browser routes (HTTPS issuer)', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await harness(testConfig());
  });
  afterAll(() => h.app.close());
  beforeEach(() => jest.clearAllMocks());

  describe('GET /oauth/authorize', () => {
    it('answers an unknown client with a 400 HTML error page and no redirect', async () => {
      h.authorization.check.mockResolvedValue({
        ok: false,
        refusal: { error: 'invalid_request', errorDescription: 'unknown client_id', redirectable: false },
      });
      const response = await h.app.inject({ method: 'GET', url: AUTHORIZE });
      expect(response.statusCode).toBe(400);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.headers.location).toBeUndefined();
      expect(response.body).toContain('unknown client_id');
      expectBrowserHeaders(response.headers);
    });

    it('redirects a redirectable error to the client with the state', async () => {
      h.authorization.check.mockResolvedValue({
        ok: false,
        refusal: { error: 'unsupported_response_type', redirectable: true },
      });
      const response = await h.app.inject({ method: 'GET', url: AUTHORIZE });
      expect(response.statusCode).toBe(302);
      expect(response.headers.location).toBe(
        'https://dashboard.example.com/callback?error=unsupported_response_type&state=xyz&iss=https%3A%2F%2Fauth.example.test',
      );
      expectBrowserHeaders(response.headers);
    });

    it('sends a browser without a session to the login', async () => {
      h.authorization.check.mockResolvedValue({ ok: true, request: acceptedRequest() });
      const response = await h.app.inject({ method: 'GET', url: AUTHORIZE });
      expect(response.statusCode).toBe(302);
      expect(response.headers.location).toBe(`/auth/login?return_to=${encodeURIComponent(AUTHORIZE)}`);
    });

    it('sends an expired session to the login and clears its cookie', async () => {
      h.authorization.check.mockResolvedValue({ ok: true, request: acceptedRequest() });
      h.sessions.resolve.mockResolvedValue(undefined);
      const response = await h.app.inject({
        method: 'GET',
        url: AUTHORIZE,
        cookies: { '__Host-session': 'stale' },
      });
      expect(response.statusCode).toBe(302);
      expect(setCookies(response.headers)).toEqual([expect.stringMatching(/^__Host-session=; Max-Age=0;/)]);
    });

    it('shows the consent screen with a CSP naming the redirect origin as a form target', async () => {
      h.authorization.check.mockResolvedValue({ ok: true, request: acceptedRequest() });
      h.sessions.resolve.mockResolvedValue({ user: userFactory(), authTime: new Date() });
      const response = await h.app.inject({
        method: 'GET',
        url: AUTHORIZE,
        cookies: { '__Host-session': 'session-1' },
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expectBrowserHeaders(response.headers);
      expect(response.headers['content-security-policy']).toContain(
        "form-action 'self' https://dashboard.example.com;",
      );
      expect(response.body).toContain('Dashboard');
      expect(response.body).toContain('List and view job executions');
      expect(response.body).toContain(`name="csrf_token" value="${h.csrf.tokenFor('session-1')}"`);
      expect(h.sessions.resolve).toHaveBeenCalledWith('session-1');
    });

    it('answers a control plane outage with a 503 HTML page', async () => {
      h.authorization.check.mockRejectedValue(
        new DomainError('unavailable', 'The control plane is unavailable'),
      );
      const response = await h.app.inject({ method: 'GET', url: AUTHORIZE });
      expect(response.statusCode).toBe(503);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.body).toContain('The control plane is unavailable');
    });
  });

  describe('POST /oauth/authorize/decision', () => {
    const decision = (fields: Record<string, string>, session?: string) =>
      h.app.inject({
        method: 'POST',
        url: '/oauth/authorize/decision',
        headers: FORM,
        payload: new URLSearchParams({
          ...Object.fromEntries(new URL(AUTHORIZE, 'https://x').searchParams),
          ...fields,
        }).toString(),
        ...(session !== undefined && { cookies: { '__Host-session': session } }),
      });

    it('refuses a post without a CSRF token with a 403 page, and issues nothing', async () => {
      const response = await decision({ decision: 'approve' }, 'session-1');
      expect(response.statusCode).toBe(403);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.headers.location).toBeUndefined();
      expect(h.authorization.decide).not.toHaveBeenCalled();
    });

    it('refuses the CSRF token of another session', async () => {
      const response = await decision(
        { decision: 'approve', csrf_token: h.csrf.tokenFor('session-2') },
        'session-1',
      );
      expect(response.statusCode).toBe(403);
      expect(h.authorization.decide).not.toHaveBeenCalled();
    });

    it('refuses a CSRF token keyed by INTERNAL_TOKEN: the browser keys come from SESSION_SECRET', async () => {
      const forged = new CsrfTokens(deriveKey(testConfig().internalToken, 'csrf')).tokenFor('session-1');
      const response = await decision({ decision: 'approve', csrf_token: forged }, 'session-1');
      expect(response.statusCode).toBe(403);
      expect(h.authorization.decide).not.toHaveBeenCalled();
    });

    it('approves and sends the browser to the redirect the control plane answers, with 303', async () => {
      h.authorization.decide.mockResolvedValue({
        outcome: 'redirect',
        redirectTo: 'https://dashboard.example.com/callback?code=c0de&state=xyz',
      });
      const response = await decision(
        { decision: 'approve', csrf_token: h.csrf.tokenFor('session-1') },
        'session-1',
      );
      expect(response.statusCode).toBe(303);
      expect(response.headers.location).toBe('https://dashboard.example.com/callback?code=c0de&state=xyz');
      expect(h.authorization.decide).toHaveBeenCalledWith(
        expect.objectContaining({ client_id: 'dashboard', state: 'xyz' }),
        'session-1',
        true,
      );
    });

    it('answers a JSON body with 415 as an HTML page', async () => {
      const response = await h.app.inject({
        method: 'POST',
        url: '/oauth/authorize/decision',
        payload: { decision: 'approve' },
      });
      expect(response.statusCode).toBe(415);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    });
  });

  describe('GET /auth/login', () => {
    it.each(['//evil.example', 'https://evil.example', '/\\evil.example', 'javascript:alert(1)'])(
      'refuses return_to=%s with a 400 page and never goes anywhere',
      async (returnTo) => {
        const response = await h.app.inject({
          method: 'GET',
          url: `/auth/login?return_to=${encodeURIComponent(returnTo)}`,
        });
        expect(response.statusCode).toBe(400);
        expect(response.headers.location).toBeUndefined();
        expect(h.identityProvider.startLogin).not.toHaveBeenCalled();
      },
    );

    it('sends the browser to the identity provider with the transaction sealed in a short-lived cookie', async () => {
      const transaction: LoginTransaction = { state: 's', nonce: 'n', codeVerifier: 'v', returnTo: '/next' };
      h.identityProvider.startLogin.mockResolvedValue({
        authorizationUrl: new URL('https://idp.example/authorize?state=s'),
        transaction,
      });
      const response = await h.app.inject({ method: 'GET', url: '/auth/login?return_to=%2Fnext' });
      expect(response.statusCode).toBe(302);
      expect(response.headers.location).toBe('https://idp.example/authorize?state=s');
      expect(h.identityProvider.startLogin).toHaveBeenCalledWith('/next', undefined, { forceLogin: false });
      const [cookie] = setCookies(response.headers);
      expect(cookie).toMatch(
        /^__Host-login=[A-Za-z0-9_-]+; Max-Age=600; Path=\/; HttpOnly; Secure; SameSite=Lax$/,
      );
      const sealed = cookie.split(';')[0].slice('__Host-login='.length);
      expect(h.transactions.open(sealed)).toEqual(transaction);
    });

    it('starts at / without return_to', async () => {
      h.identityProvider.startLogin.mockResolvedValue({
        authorizationUrl: new URL('https://idp.example/authorize'),
        transaction: { state: 's', nonce: 'n', codeVerifier: 'v', returnTo: '/' },
      });
      await h.app.inject({ method: 'GET', url: '/auth/login' });
      expect(h.identityProvider.startLogin).toHaveBeenCalledWith('/', undefined, { forceLogin: false });
    });

    it('answers 503 with an HTML page when the identity provider is down', async () => {
      h.identityProvider.startLogin.mockRejectedValue(
        new DomainError('unavailable', 'The identity provider is unavailable; please try again shortly'),
      );
      const response = await h.app.inject({ method: 'GET', url: '/auth/login' });
      expect(response.statusCode).toBe(503);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.body).toContain('The identity provider is unavailable');
    });
  });

  describe('GET /auth/oidc/callback', () => {
    const transaction: LoginTransaction = {
      state: 'st',
      nonce: 'no',
      codeVerifier: 'ver',
      returnTo: '/oauth/authorize?client_id=dashboard',
    };

    it('exchanges the code, opens a session cookie and goes back to return_to', async () => {
      h.identityProvider.finishLogin.mockResolvedValue({
        idToken: 'id.token.signed-by-the-provider',
        userInfo: { sub: 'alice', email: 'alice@acme.example' },
      });
      h.sessions.create.mockResolvedValue({
        session: 'new-session',
        expiresAt: new Date(Date.now() + 8 * 3600 * 1000),
        user: userFactory(),
      });
      const response = await h.app.inject({
        method: 'GET',
        url: '/auth/oidc/callback?code=idp-code&state=st',
        cookies: { '__Host-login': h.transactions.seal(transaction) },
      });
      expect(response.statusCode).toBe(302);
      expect(response.headers.location).toBe('/oauth/authorize?client_id=dashboard');
      const [callbackUrl, passed] = h.identityProvider.finishLogin.mock.calls[0];
      expect(callbackUrl.href).toBe('https://auth.example.test/auth/oidc/callback?code=idp-code&state=st');
      expect(passed).toEqual(transaction);
      expect(h.sessions.create).toHaveBeenCalledWith({
        idToken: 'id.token.signed-by-the-provider',
        userInfo: { sub: 'alice', email: 'alice@acme.example' },
      });
      const cookies = setCookies(response.headers);
      expect(cookies).toContainEqual(expect.stringMatching(/^__Host-login=; Max-Age=0;/));
      const session = cookies.find((c) => c.startsWith('__Host-session='));
      expect(session).toMatch(
        /^__Host-session=new-session; Max-Age=28\d\d\d; Path=\/; HttpOnly; Secure; SameSite=Lax$/,
      );
    });

    it('refuses a callback without its transaction cookie', async () => {
      const response = await h.app.inject({ method: 'GET', url: '/auth/oidc/callback?code=c&state=st' });
      expect(response.statusCode).toBe(400);
      expect(response.body).toContain('start again');
      expect(h.identityProvider.finishLogin).not.toHaveBeenCalled();
    });

    it('refuses a tampered transaction cookie', async () => {
      const sealed = h.transactions.seal(transaction);
      const tampered = `${sealed.slice(0, 10)}${sealed[10] === 'A' ? 'B' : 'A'}${sealed.slice(11)}`;
      const response = await h.app.inject({
        method: 'GET',
        url: '/auth/oidc/callback?code=c&state=st',
        cookies: { '__Host-login': tampered },
      });
      expect(response.statusCode).toBe(400);
      expect(h.identityProvider.finishLogin).not.toHaveBeenCalled();
      expect(h.sessions.create).not.toHaveBeenCalled();
    });

    it('refuses a transaction cookie sealed with a key from INTERNAL_TOKEN', async () => {
      const key = deriveKey(testConfig().internalToken, 'login-transaction');
      const forged = new LoginTransactions(new SealedBox(key, 'login-transaction')).seal(transaction);
      const response = await h.app.inject({
        method: 'GET',
        url: '/auth/oidc/callback?code=c&state=st',
        cookies: { '__Host-login': forged },
      });
      expect(response.statusCode).toBe(400);
      expect(h.sessions.create).not.toHaveBeenCalled();
    });

    it('shows the refusal of the identity provider as a 403 page', async () => {
      h.identityProvider.finishLogin.mockRejectedValue(
        new DomainError('forbidden', 'The identity provider did not sign you in (access_denied).'),
      );
      const response = await h.app.inject({
        method: 'GET',
        url: '/auth/oidc/callback?error=access_denied&state=st',
        cookies: { '__Host-login': h.transactions.seal(transaction) },
      });
      expect(response.statusCode).toBe(403);
      expect(response.body).toContain('access_denied');
      expect(setCookies(response.headers)).toContainEqual(
        expect.stringMatching(/^__Host-login=; Max-Age=0;/),
      );
    });
  });

  describe('POST /auth/logout', () => {
    it('refuses a logout without the CSRF token and keeps the session', async () => {
      const response = await h.app.inject({
        method: 'POST',
        url: '/auth/logout',
        headers: FORM,
        payload: '',
        cookies: { '__Host-session': 'session-1' },
      });
      expect(response.statusCode).toBe(403);
      expect(h.sessions.end).not.toHaveBeenCalled();
      expect(setCookies(response.headers)).toEqual([]);
    });

    it('ends the session, clears the cookie and shows the signed-out page', async () => {
      const response = await h.app.inject({
        method: 'POST',
        url: '/auth/logout',
        headers: FORM,
        payload: `csrf_token=${h.csrf.tokenFor('session-1')}`,
        cookies: { '__Host-session': 'session-1' },
      });
      expect(response.statusCode).toBe(200);
      expect(response.body).toContain('Signed out');
      expect(h.sessions.end).toHaveBeenCalledWith('session-1');
      expect(setCookies(response.headers)).toEqual([expect.stringMatching(/^__Host-session=; Max-Age=0;/)]);
    });

    it('goes to a relative return_to afterwards, never to another site', async () => {
      const token = h.csrf.tokenFor('session-1');
      const relative = await h.app.inject({
        method: 'POST',
        url: '/auth/logout',
        headers: FORM,
        payload: new URLSearchParams({
          csrf_token: token,
          return_to: '/oauth/authorize?client_id=x',
        }).toString(),
        cookies: { '__Host-session': 'session-1' },
      });
      expect(relative.statusCode).toBe(303);
      expect(relative.headers.location).toBe('/oauth/authorize?client_id=x');
      const foreign = await h.app.inject({
        method: 'POST',
        url: '/auth/logout',
        headers: FORM,
        payload: new URLSearchParams({ csrf_token: token, return_to: '//evil.example' }).toString(),
        cookies: { '__Host-session': 'session-1' },
      });
      expect(foreign.statusCode).toBe(200);
      expect(foreign.headers.location).toBeUndefined();
    });
  });
});

describe('browser routes (plain-HTTP development)', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await harness(testConfig({ nodeEnv: 'development', issuer: 'http://localhost:3000' }));
  });
  afterAll(() => h.app.close());

  it('names the cookies without the __Host- prefix and without Secure', async () => {
    h.identityProvider.startLogin.mockResolvedValue({
      authorizationUrl: new URL('http://localhost:3001/auth'),
      transaction: { state: 's', nonce: 'n', codeVerifier: 'v', returnTo: '/' },
    });
    const response = await h.app.inject({ method: 'GET', url: '/auth/login' });
    const [cookie] = setCookies(response.headers);
    expect(cookie).toMatch(/^login=[A-Za-z0-9_-]+; Max-Age=600; Path=\/; HttpOnly; SameSite=Lax$/);
  });

  it('reads the session from the cookie named session', async () => {
    h.authorization.check.mockResolvedValue({ ok: true, request: acceptedRequest() });
    h.sessions.resolve.mockResolvedValue({ user: userFactory(), authTime: new Date() });
    const response = await h.app.inject({
      method: 'GET',
      url: AUTHORIZE,
      cookies: { session: 'dev-session' },
    });
    expect(response.statusCode).toBe(200);
    expect(h.sessions.resolve).toHaveBeenCalledWith('dev-session');
  });
});
