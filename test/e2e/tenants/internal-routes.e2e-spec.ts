import * as client from 'openid-client';
import { createSession, internalPost, type TestIdentity } from '../../support/internal-consent';
import { adminToken, discover, registerApp, type RegisteredApp } from '../../support/oauth';
import { sharedPlatform, type TestPlatform } from '../../support/platform';

/** Its own app, callback and tenants on the shared platform: it lists the users of ACME. */
const CLIENT_ID = 'tenant-routes-console';
const CALLBACK = 'http://127.0.0.1:9/tenant-routes/callback';
const ACME = 'tenant-routes-acme';
const GLOBEX = 'tenant-routes-globex';

const principal = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

const ACME_ADMIN = principal({
  kind: 'user',
  id: 'x',
  client_id: CLIENT_ID,
  tenant: ACME,
  roles: ['tenant_admin'],
  scope: 'users.read users.write',
});

const member: TestIdentity = {
  issuer: 'https://idp.example.test',
  subject: 'tenant-routes-member',
  claims: { email: 'member@acme.example', name: 'Member', tenant: ACME, roles: ['user'] },
};

describe('control plane: /internal/v1/tenants and /internal/v1/app-login', () => {
  let platform: TestPlatform;
  let consoleApp: RegisteredApp;

  beforeAll(async () => {
    platform = sharedPlatform();
    const admin = await adminToken(await discover(platform), platform);
    consoleApp = await registerApp(platform, admin, {
      client_id: CLIENT_ID,
      app_type: 'web',
      declared_scopes: ['users.read'],
      redirect_uris: [CALLBACK],
    });
  });

  const getUsers = (headers: Record<string, string>) =>
    fetch(`${platform.controlPlaneUrl}/internal/v1/tenants/${ACME}/users`, { headers });

  describe('GET /internal/v1/tenants/{tenant}/users', () => {
    it('lists the users of the tenant for the principal the backend names', async () => {
      const { user } = await createSession(platform, member);
      const response = await getUsers({
        'x-internal-token': platform.internalToken,
        'x-platform-principal': ACME_ADMIN,
      });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual([
        { id: user.id, email: 'member@acme.example', name: 'Member', tenant: ACME, roles: ['user'] },
      ]);
    });

    it('refuses a call without the internal token (401) or without a principal (400)', async () => {
      expect((await getUsers({ 'x-platform-principal': ACME_ADMIN })).status).toBe(401);
      const missing = await getUsers({ 'x-internal-token': platform.internalToken });
      expect(missing.status).toBe(400);
      expect(missing.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      const malformed = await getUsers({
        'x-internal-token': platform.internalToken,
        'x-platform-principal': 'nope',
      });
      expect(malformed.status).toBe(400);
    });

    it('refuses a user principal of another tenant, whatever the backend forwarded', async () => {
      const globex = principal({
        kind: 'user',
        id: 'y',
        client_id: CLIENT_ID,
        tenant: GLOBEX,
        roles: ['tenant_admin'],
      });
      const response = await getUsers({
        'x-internal-token': platform.internalToken,
        'x-platform-principal': globex,
      });
      expect(response.status).toBe(403);
    });
  });

  describe('POST /internal/v1/app-login/*', () => {
    it('names the app of a registered callback, and refuses any other return_to', async () => {
      const ok = await internalPost(platform, '/internal/v1/app-login/check', { return_to: CALLBACK });
      expect(ok.status).toBe(200);
      expect(await ok.json()).toEqual({ client_id: CLIENT_ID, client_name: CLIENT_ID, return_to: CALLBACK });
      const refused = await internalPost(platform, '/internal/v1/app-login/check', {
        return_to: 'https://evil.example/auth/callback',
      });
      expect(refused.status).toBe(400);
    });

    it('issues a login code for a live session, which the exchange accepts once', async () => {
      const { session } = await createSession(platform, member);
      const verifier = client.randomPKCECodeVerifier();
      const issued = await internalPost(platform, '/internal/v1/app-login/codes', {
        session,
        client_id: CLIENT_ID,
        return_to: CALLBACK,
        code_challenge: await client.calculatePKCECodeChallenge(verifier),
        state: 'from-the-app',
      });
      expect(issued.status).toBe(201);
      const { redirect_to } = (await issued.json()) as { redirect_to: string };
      const code = new URL(redirect_to).searchParams.get('code');
      expect(new URL(redirect_to).searchParams.get('state')).toBe('from-the-app');
      const exchange = {
        code,
        code_verifier: verifier,
        client_id: CLIENT_ID,
        client_secret: consoleApp.client_secret,
      };
      const first = await internalPost(platform, '/internal/v1/app-login/exchange', exchange);
      expect(first.status).toBe(200);
      expect(await first.json()).toMatchObject({ token_type: 'Bearer', scope: 'users.read' });
      const second = await internalPost(platform, '/internal/v1/app-login/exchange', exchange);
      expect(second.status).toBe(400);
      expect(await second.json()).toMatchObject({ error: 'invalid_grant' });
    });

    it('refuses a code for an unknown session', async () => {
      const response = await internalPost(platform, '/internal/v1/app-login/codes', {
        session: 'unknown',
        client_id: CLIENT_ID,
        return_to: CALLBACK,
        code_challenge: await client.calculatePKCECodeChallenge(client.randomPKCECodeVerifier()),
      });
      expect(response.status).toBe(401);
    });
  });
});
