import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type * as oauth from 'oauth4webapi';
import {
  adminToken,
  basic,
  clientCredentialsToken,
  discover,
  postForm,
  registerApp,
} from '../../support/oauth';
import { startPlatform, type TestPlatform } from '../../support/platform';

describe('/v1/oauth/apps', () => {
  let platform: TestPlatform;
  let as: oauth.AuthorizationServer;
  let admin: string;

  beforeAll(async () => {
    platform = await startPlatform();
    as = await discover(platform);
    admin = await adminToken(as, platform);
  });
  afterAll(() => platform?.stop());

  const apps = (path = '') => `${platform.baseUrl}/v1/oauth/apps${path}`;
  const asAdmin = (init: RequestInit = {}) => ({
    ...init,
    headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json', ...init.headers },
  });

  describe('POST', () => {
    it('registers a service app and shows its secret once, with created_at', async () => {
      const response = await fetch(
        apps(),
        asAdmin({
          method: 'POST',
          body: JSON.stringify({
            client_id: 'reports',
            name: 'Reports',
            declared_scopes: ['files.read'],
            app_type: 'service',
          }),
        }),
      );
      expect(response.status).toBe(201);
      const body = (await response.json()) as Record<string, unknown>;
      expect(body).toMatchObject({
        client_id: 'reports',
        name: 'Reports',
        declared_scopes: ['files.read'],
        app_type: 'service',
      });
      expect(body.client_secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(new Date(String(body.created_at)).toISOString()).toBe(body.created_at);
    });

    it('registers a spa app without a secret', async () => {
      const body = await registerApp(platform, admin, {
        client_id: 'dashboard',
        app_type: 'spa',
        redirect_uris: ['https://dashboard.example.com/callback'],
      });
      expect(body.client_secret).toBeUndefined();
      expect(body.redirect_uris).toEqual(['https://dashboard.example.com/callback']);
    });

    it('refuses a duplicate client_id with 409 problem+json', async () => {
      await registerApp(platform, admin, { client_id: 'twice' });
      const response = await fetch(
        apps(),
        asAdmin({
          method: 'POST',
          body: JSON.stringify({
            client_id: 'twice',
            name: 'Again',
            declared_scopes: ['jobs.read'],
            app_type: 'service',
          }),
        }),
      );
      expect(response.status).toBe(409);
      expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(await response.json()).toMatchObject({ status: 409 });
    });

    it.each([
      [
        'an undefined scope',
        { client_id: 'x-undefined', declared_scopes: ['rockets.launch'], app_type: 'service' },
      ],
      ['an unknown app_type', { client_id: 'x-type', declared_scopes: ['jobs.read'], app_type: 'robot' }],
      ['a bad client_id', { client_id: 'no spaces!', declared_scopes: ['jobs.read'], app_type: 'service' }],
      [
        'a web app without redirect_uris',
        { client_id: 'x-web', declared_scopes: ['jobs.read'], app_type: 'web' },
      ],
      [
        'a non-https redirect_uri',
        {
          client_id: 'x-http',
          declared_scopes: ['jobs.read'],
          app_type: 'web',
          redirect_uris: ['http://evil.example/cb'],
        },
      ],
      [
        'declared_scopes that is not an array',
        { client_id: 'x-arr', declared_scopes: 'jobs.read', app_type: 'service' },
      ],
    ])('refuses %s with 400 problem+json', async (_, body) => {
      const response = await fetch(
        apps(),
        asAdmin({ method: 'POST', body: JSON.stringify({ name: 'x', ...body }) }),
      );
      expect(response.status).toBe(400);
      expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    });

    it.each([
      ['web', 'https://*.example.test/cb', 'has a wildcard (*)'],
      ['web', 'https://user:pw@evil.example.test/cb', 'has userinfo'],
      ['web', 'https://app.example.test/cb#done', 'has a fragment'],
      ['cli', 'http://127.1/cb', 'has a non-canonical IP literal: write it as 127.0.0.1'],
      ['cli', 'http://0x7f.0.0.1/cb', 'has a non-canonical IP literal: write it as 127.0.0.1'],
      ['cli', 'http://localhost/cb', 'names localhost: use 127.0.0.1 or [::1]'],
      ['spa', 'http://app.example.test/cb', 'must use https'],
      ['web', 'com.example.portal:/cb', 'uses a private-use scheme, which is for native (cli) apps only'],
    ])(
      'refuses a %s app the redirect_uri %s with 400 naming the rule it breaks',
      async (appType, uri, rule) => {
        const response = await fetch(
          apps(),
          asAdmin({
            method: 'POST',
            body: JSON.stringify({
              client_id: 'x-redirect',
              name: 'x',
              declared_scopes: ['jobs.read'],
              app_type: appType,
              redirect_uris: ['https://app.example.test/callback', uri],
            }),
          }),
        );
        expect(response.status).toBe(400);
        expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
        const { detail } = (await response.json()) as { detail: string };
        expect(detail).toContain(`invalid redirect_uris: redirect_uris[1] ${rule}`);
        expect(detail).not.toContain('pw');
      },
    );

    it("registers a native (cli) app's loopback and private-use redirect URIs", async () => {
      const uris = ['http://127.0.0.1/callback', 'http://[::1]/callback', 'com.example.ops:/oauth2redirect'];
      const body = await registerApp(platform, admin, {
        client_id: 'ops-cli',
        app_type: 'cli',
        redirect_uris: uris,
      });
      expect(body.redirect_uris).toEqual(uris);
    });

    it('refuses malformed JSON with 400, and a non-JSON body with 415', async () => {
      const malformed = await fetch(apps(), asAdmin({ method: 'POST', body: '{"client_id": ' }));
      expect(malformed.status).toBe(400);
      const form = await fetch(
        apps(),
        asAdmin({
          method: 'POST',
          body: 'client_id=x',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        }),
      );
      expect(form.status).toBe(415);
    });

    it('accepts a custom scope once it is defined through /api/v1/scopes', async () => {
      const defined = await fetch(
        `${platform.baseUrl}/api/v1/scopes`,
        asAdmin({
          method: 'POST',
          body: JSON.stringify({ name: 'reports.export', description: 'Export reports' }),
        }),
      );
      expect(defined.status).toBe(201);
      const app = await registerApp(platform, admin, {
        client_id: 'exporter',
        declared_scopes: ['reports.export'],
      });
      expect(app.declared_scopes).toEqual(['reports.export']);
    });
  });

  describe('authorization', () => {
    it('answers a request without a Bearer token with 401 and a bare Bearer challenge', async () => {
      const response = await fetch(apps());
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer realm=/);
      expect(response.headers.get('www-authenticate')).not.toMatch(/error=/);
    });

    it('answers a non-admin token with 403 insufficient_scope', async () => {
      const app = await registerApp(platform, admin, { client_id: 'plain-worker' });
      const token = (
        await clientCredentialsToken(as, { clientId: app.client_id, clientSecret: app.client_secret! })
      ).access_token;
      const response = await fetch(apps(), { headers: { authorization: `Bearer ${token}` } });
      expect(response.status).toBe(403);
      expect(response.headers.get('www-authenticate')).toMatch(/error="insufficient_scope"/);
    });

    it('answers a garbage token with 401 invalid_token', async () => {
      const response = await fetch(apps(), { headers: { authorization: 'Bearer not.a.token' } });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
    });
  });

  describe('GET', () => {
    it('lists apps without secrets and pages with a Link header', async () => {
      for (const id of ['page-a', 'page-b', 'page-c']) await registerApp(platform, admin, { client_id: id });
      const first = await fetch(apps('?limit=2'), asAdmin());
      expect(first.status).toBe(200);
      const items = (await first.json()) as Array<Record<string, unknown>>;
      expect(items).toHaveLength(2);
      for (const item of items) {
        expect(Object.keys(item).sort()).toEqual(
          [
            'app_type',
            'backchannel_logout_uri',
            'client_id',
            'created_at',
            'declared_scopes',
            'name',
            'post_logout_redirect_uris',
            'redirect_uris',
            'rotated_at',
            'resource_uri',
            'token_exchange_audiences',
            'impersonation_allowed',
            'dpop_bound_access_tokens',
            'token_endpoint_auth_method',
            'jwks',
            'jwks_uri',
          ].sort(),
        );
      }
      const link = first.headers.get('link');
      expect(link).toMatch(new RegExp(`^<${platform.baseUrl}/v1/oauth/apps\\?[^>]+>; rel="next"$`));
      const next = await fetch(link!.slice(1, link!.indexOf('>')), asAdmin());
      const nextItems = (await next.json()) as Array<{ client_id: string }>;
      expect(nextItems.map((i) => i.client_id)).not.toContain(items[0].client_id);
    });

    it('refuses a limit above 1000 with 400', async () => {
      expect((await fetch(apps('?limit=5000'), asAdmin())).status).toBe(400);
    });
  });

  describe('POST /{id}/rotate-secret', () => {
    it('returns a new secret with rotated_at, and the old secret fails at once', async () => {
      const app = await registerApp(platform, admin, { client_id: 'rotating' });
      const before = await postForm(
        `${platform.baseUrl}/v1/oauth/token`,
        { grant_type: 'client_credentials' },
        { authorization: basic(app.client_id, app.client_secret!) },
      );
      expect(before.status).toBe(200);

      const response = await fetch(apps('/rotating/rotate-secret'), asAdmin({ method: 'POST' }));
      expect(response.status).toBe(200);
      const rotated = (await response.json()) as Record<string, unknown>;
      expect(rotated).toMatchObject({
        client_id: 'rotating',
        client_secret: expect.any(String),
        rotated_at: expect.any(String),
      });

      const old = await postForm(
        `${platform.baseUrl}/v1/oauth/token`,
        { grant_type: 'client_credentials' },
        { authorization: basic(app.client_id, app.client_secret!) },
      );
      expect(old.status).toBe(401);
      const fresh = await postForm(
        `${platform.baseUrl}/v1/oauth/token`,
        { grant_type: 'client_credentials' },
        { authorization: basic(app.client_id, String(rotated.client_secret)) },
      );
      expect(fresh.status).toBe(200);
    });

    it('answers 404 for an unknown app', async () => {
      expect((await fetch(apps('/ghost/rotate-secret'), asAdmin({ method: 'POST' }))).status).toBe(404);
    });
  });

  describe('DELETE /{id}', () => {
    it('answers 204 with no body and revokes the app tokens at once', async () => {
      const app = await registerApp(platform, admin, { client_id: 'doomed' });
      const token = (
        await clientCredentialsToken(as, { clientId: app.client_id, clientSecret: app.client_secret! })
      ).access_token;
      expect(
        (await fetch(`${platform.baseUrl}/v1/me`, { headers: { authorization: `Bearer ${token}` } })).status,
      ).toBe(200);

      const response = await fetch(apps('/doomed'), asAdmin({ method: 'DELETE' }));
      expect(response.status).toBe(204);
      expect(await response.text()).toBe('');

      expect(
        (await fetch(`${platform.baseUrl}/v1/me`, { headers: { authorization: `Bearer ${token}` } })).status,
      ).toBe(401);
      const introspection = await postForm(
        `${platform.baseUrl}/v1/oauth/introspect`,
        { token },
        { authorization: basic(platform.admin.clientId, platform.admin.clientSecret) },
      );
      expect(await introspection.json()).toEqual({ active: false });
      const again = await postForm(
        `${platform.baseUrl}/v1/oauth/token`,
        { grant_type: 'client_credentials' },
        { authorization: basic(app.client_id, app.client_secret!) },
      );
      expect(again.status).toBe(401);
    });

    it('answers 404 for an unknown app', async () => {
      expect((await fetch(apps('/ghost'), asAdmin({ method: 'DELETE' }))).status).toBe(404);
    });
  });

  describe('an app registered before the redirect URI rules', () => {
    it('is named at start-up, without its URIs, and its broken URI is refused at authorize', async () => {
      await registerApp(platform, admin, {
        client_id: 'legacy-cli',
        app_type: 'cli',
        redirect_uris: ['http://127.0.0.1/callback'],
      });
      const db = new Database(join(platform.dataDir, 'platform.sqlite'));
      db.prepare('UPDATE applications SET redirect_uris = ? WHERE client_id = ?').run(
        JSON.stringify(['http://localhost:8080/callback', 'https://user:pw@cli.example.test/cb']),
        'legacy-cli',
      );
      db.close();
      await platform.stopProcess('control-plane');
      await platform.restartProcess('control-plane');

      const log = readFileSync(join(platform.dataDir, 'platform.log'), 'utf8');
      expect(log).toContain(
        'app legacy-cli (cli) has redirect URIs that break the redirect URI rules and are refused at authorize: ' +
          'redirect_uris[0] names localhost: use 127.0.0.1 or [::1] (RFC 8252 section 8.3); redirect_uris[1] has userinfo',
      );
      expect(log).not.toContain('user:pw@');

      const authorize = new URL('/oauth/authorize', platform.baseUrl);
      authorize.search = new URLSearchParams({
        client_id: 'legacy-cli',
        redirect_uri: 'http://localhost:8080/callback',
        response_type: 'code',
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
      }).toString();
      const refused = await fetch(authorize, { redirect: 'manual' });
      expect(refused.status).toBe(400);
      expect(refused.headers.get('location')).toBeNull();
      expect(await refused.text()).toContain('breaks the redirect URI rules: it names localhost');
    });
  });
});
