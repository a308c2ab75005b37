import * as oauth from 'oauth4webapi';
import { adminToken, discover, registerApp } from '../../support/oauth';
import { sharedPlatform, type TestPlatform } from '../../support/platform';
import { createSession, internalPost, TEST_IDENTITY } from '../../support/internal-consent';

/** Unique on the shared platform, which other files register apps on too. */
const CLIENT_ID = 'internal-routes-dashboard';

/** The control plane's side of the contract in docs/internal-api.md, which the backend relies on. */
describe('control plane /internal/v1/sessions and /internal/v1/authorize', () => {
  let platform: TestPlatform;
  const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';
  const request = (overrides: Record<string, string | undefined> = {}) => ({
    client_id: CLIENT_ID,
    redirect_uri: 'https://dashboard.example.test/callback',
    response_type: 'code',
    scope: 'jobs.read',
    code_challenge: CHALLENGE,
    code_challenge_method: 'S256',
    state: 'af0ifjsldkj',
    ...overrides,
  });

  beforeAll(async () => {
    platform = sharedPlatform();
    const admin = await adminToken(await discover(platform), platform);
    await registerApp(platform, admin, {
      client_id: CLIENT_ID,
      name: 'Operations dashboard',
      app_type: 'spa',
      declared_scopes: ['jobs.*'],
      redirect_uris: ['https://dashboard.example.test/callback'],
    });
  });

  describe('sessions', () => {
    it('opens a session for the identity: 201 with the opaque value, its expiry in 8 hours and the user', async () => {
      const before = Date.now();
      const response = await internalPost(platform, '/internal/v1/sessions', TEST_IDENTITY);
      expect(response.status).toBe(201);
      const body = (await response.json()) as { session: string; expires_at: string; user: unknown };
      expect(body).toEqual({
        session: expect.stringMatching(/^plat_ss_[A-Za-z0-9_-]{43}$/),
        expires_at: expect.any(String),
        user: {
          id: expect.any(String),
          email: 'ada@example.test',
          name: 'Ada Lovelace',
          tenant: 'acme',
          roles: ['tenant_admin', 'viewer'],
        },
      });
      const openedAt = Date.parse(body.expires_at) - 8 * 3600_000;
      expect(openedAt).toBeGreaterThanOrEqual(before);
      expect(openedAt).toBeLessThanOrEqual(Date.now());
    });

    it('maps missing claims to tenant default and role user, and drops roles outside the bundle', async () => {
      const { user } = await createSession(platform, {
        issuer: 'https://idp.example.test',
        subject: 'grace',
        claims: { roles: ['root', 'superuser'] },
      });
      expect(user).toMatchObject({ email: null, name: null, tenant: 'default', roles: ['user'] });
    });

    it('resolves a session to its user, and refuses it once ended: 401 problem+json', async () => {
      const { session, user } = await createSession(platform);
      const resolved = await internalPost(platform, '/internal/v1/sessions/resolve', { session });
      expect(resolved.status).toBe(200);
      expect(await resolved.json()).toEqual({ user, auth_time: expect.any(String) });

      const ended = await internalPost(platform, '/internal/v1/sessions/end', { session });
      expect(ended.status).toBe(204);
      const refused = await internalPost(platform, '/internal/v1/sessions/resolve', { session });
      expect(refused.status).toBe(401);
      expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(await refused.json()).toMatchObject({ status: 401 });
    });

    it('ends an unknown session with 204 too', async () => {
      expect((await internalPost(platform, '/internal/v1/sessions/end', { session: 'unknown' })).status).toBe(
        204,
      );
    });

    it('refuses a malformed body: 400 problem+json', async () => {
      const response = await internalPost(platform, '/internal/v1/sessions', {
        issuer: 'x',
        claims: 'not an object',
      });
      expect(response.status).toBe(400);
      expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    });
  });

  describe('authorize/check', () => {
    it('answers the client, its redirect URI and the described scopes', async () => {
      const response = await internalPost(platform, '/internal/v1/authorize/check', request());
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({
        client_id: CLIENT_ID,
        client_name: 'Operations dashboard',
        redirect_uri: 'https://dashboard.example.test/callback',
        scopes: [{ name: 'jobs.read', description: 'List and view job executions' }],
      });
    });

    it.each([
      ['an unknown client', { client_id: 'nobody' }, 'invalid_client'],
      ['an unregistered redirect URI', { redirect_uri: 'https://evil.example/callback' }, 'invalid_request'],
      ['a missing redirect URI', { redirect_uri: undefined }, 'invalid_request'],
    ])('refuses %s without a redirect: 400 redirectable false', async (_, overrides, error) => {
      const response = await internalPost(platform, '/internal/v1/authorize/check', request(overrides));
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({
        error,
        error_description: expect.any(String),
        redirectable: false,
      });
    });

    it.each([
      ['a missing code_challenge', { code_challenge: undefined }, 'invalid_request'],
      ['the plain method', { code_challenge_method: 'plain' }, 'invalid_request'],
      ['response_type token', { response_type: 'token' }, 'unsupported_response_type'],
      ['an undeclared scope', { scope: 'secrets.read' }, 'invalid_scope'],
    ])('refuses %s with a redirect: 400 redirectable true', async (_, overrides, error) => {
      const response = await internalPost(platform, '/internal/v1/authorize/check', request(overrides));
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({
        error,
        error_description: expect.any(String),
        redirectable: true,
      });
    });

    it('refuses a caller without the internal token: 401 problem+json', async () => {
      const response = await internalPost(platform, '/internal/v1/authorize/check', request(), {});
      expect(response.status).toBe(401);
      expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    });
  });

  describe('authorize/decision', () => {
    it('redirects an approval with code and state', async () => {
      const { session } = await createSession(platform);
      const response = await internalPost(platform, '/internal/v1/authorize/decision', {
        ...request(),
        session,
        approved: true,
      });
      expect(response.status).toBe(200);
      const { redirect_to } = (await response.json()) as { redirect_to: string };
      expect(redirect_to).toMatch(
        new RegExp(
          `^https://dashboard\\.example\\.test/callback\\?code=plat_ac_[A-Za-z0-9_-]{43}&state=af0ifjsldkj&iss=${encodeURIComponent(platform.baseUrl)}$`,
        ),
      );
      // RFC 9207: a real client accepts it from this issuer and refuses it as another's (mix-up).
      const as = await discover(platform);
      const client = { client_id: CLIENT_ID };
      expect(oauth.validateAuthResponse(as, client, new URL(redirect_to), 'af0ifjsldkj').get('code')).toMatch(
        /^plat_ac_/,
      );
      expect(() =>
        oauth.validateAuthResponse(
          { ...as, issuer: 'https://other-server.example' },
          client,
          new URL(redirect_to),
          'af0ifjsldkj',
        ),
      ).toThrow(/iss/);
    });

    it('redirects a denial with error=access_denied and the state', async () => {
      const { session } = await createSession(platform);
      const response = await internalPost(platform, '/internal/v1/authorize/decision', {
        ...request(),
        session,
        approved: false,
      });
      expect(await response.json()).toEqual({
        redirect_to: `https://dashboard.example.test/callback?error=access_denied&state=af0ifjsldkj&iss=${encodeURIComponent(platform.baseUrl)}`,
      });
    });

    it('refuses an unknown session: 401 problem+json', async () => {
      const response = await internalPost(platform, '/internal/v1/authorize/decision', {
        ...request(),
        session: 'forged',
        approved: true,
      });
      expect(response.status).toBe(401);
      expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    });

    it('refuses a request the check refuses, in the same form', async () => {
      const { session } = await createSession(platform);
      const response = await internalPost(platform, '/internal/v1/authorize/decision', {
        ...request({ redirect_uri: 'https://evil.example/callback' }),
        session,
        approved: true,
      });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: 'invalid_request', redirectable: false });
    });
  });
});
