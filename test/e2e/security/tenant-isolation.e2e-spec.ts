import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { decodeJwt } from 'jose';
import { identityOf, introspectAsAdmin, signIn } from '../../support/internal-consent';
import { adminToken, clientCredentialsToken, discover, registerApp } from '../../support/oauth';
import { startPlatform, type TestPlatform } from '../../support/platform';

/**
 * Reproductions 1 and 3 of the issue "Authority", on the built processes: a user never becomes
 * a platform administrator through a scope, and an app bound to a tenant stays in it
 * (docs/authorization.md).
 */
describe('tenant isolation: scopes never make a user an administrator, bound apps stay bound', () => {
  let platform: TestPlatform;
  let as: Awaited<ReturnType<typeof discover>>;
  let admin: string;

  beforeAll(async () => {
    platform = await startPlatform({ env: { SECRETS_KEK: randomBytes(32).toString('base64') } });
    as = await discover(platform);
    admin = await adminToken(as, platform);
  });
  afterAll(() => platform?.stop());

  const call = (token: string, method: string, path: string, body?: unknown) =>
    fetch(`${platform.baseUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body !== undefined && { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  describe('a user-facing app and admin.*', () => {
    it.each(['admin.*', 'jobs.work', 'tokens.introspect'])(
      'refuses to register a web app declaring %s',
      async (scope) => {
        const response = await call(admin, 'POST', '/v1/oauth/apps', {
          client_id: `portal-${scope.replace(/\W/g, '')}`,
          name: 'Portal',
          app_type: 'web',
          declared_scopes: ['jobs.read', scope],
          redirect_uris: ['http://127.0.0.1:9/auth/callback'],
        });
        expect(response.status).toBe(400);
        expect(await response.text()).toContain('service-only');
      },
    );

    it('reports a web app registered before 1.0 with admin.* and never grants it to its users', async () => {
      const portal = await registerApp(platform, admin, {
        client_id: 'legacy-portal',
        app_type: 'web',
        declared_scopes: ['jobs.read'],
        redirect_uris: ['http://127.0.0.1:9/auth/callback'],
      });
      // The row as a 0.9 platform could have stored it.
      await platform.stopProcess('control-plane');
      const db = new Database(join(platform.dataDir, 'platform.sqlite'));
      db.prepare('UPDATE applications SET declared_scopes = ? WHERE client_id = ?').run(
        JSON.stringify(['jobs.read', 'admin.*']),
        'legacy-portal',
      );
      db.close();
      await platform.restartProcess('control-plane');
      expect(readFileSync(join(platform.dataDir, 'platform.log'), 'utf8')).toMatch(
        /app legacy-portal \(web\) declares admin\.\*.*never granted/,
      );

      const viewer = identityOf('vera', 'globex', ['viewer']);
      const { tokens } = await signIn(platform, portal, { identity: viewer });
      expect(tokens.scope).toBe('jobs.read');
      expect(decodeJwt(tokens.access_token).scope).toBe('jobs.read');
      await expect(
        signIn(platform, portal, { identity: viewer, scope: 'jobs.read admin.*' }),
      ).rejects.toThrow(/invalid_scope|service apps only/);

      const token = tokens.access_token;
      expect((await call(token, 'GET', '/v1/oauth/apps')).status).toBe(403);
      expect(
        (
          await call(token, 'POST', '/v1/oauth/apps', {
            client_id: 'backdoor',
            name: 'Backdoor',
            app_type: 'service',
            declared_scopes: ['admin.*'],
          })
        ).status,
      ).toBe(403);
      expect((await call(token, 'POST', '/api/v1/keys/rotate')).status).toBe(403);
    });
  });

  describe('an app bound to tenant acme', () => {
    let bound: string;

    beforeAll(async () => {
      const app = await registerApp(platform, admin, {
        client_id: 'acme-sync',
        declared_scopes: ['users.read', 'secrets.read'],
        tenant: 'acme',
      } as Parameters<typeof registerApp>[2]);
      bound = (await clientCredentialsToken(as, { clientId: 'acme-sync', clientSecret: app.client_secret! }))
        .access_token;
      for (const tenant of ['acme', 'globex']) {
        const put = await call(admin, 'PUT', `/api/v1/tenants/${tenant}/secrets/db-password`, {
          value: `${tenant}-password`,
        });
        expect(put.status).toBe(200);
      }
    });

    it('carries its tenant in its tokens, as introspection and /v1/me show', async () => {
      expect(decodeJwt(bound)).toMatchObject({ tenant: 'acme', client_id: 'acme-sync', sub: 'acme-sync' });
      expect(decodeJwt(bound)).not.toHaveProperty('grant_id');
      await expect(introspectAsAdmin(platform, bound)).resolves.toMatchObject({
        active: true,
        tenant: 'acme',
      });
      const me = await call(bound, 'GET', '/v1/me');
      expect(me.status).toBe(200);
      expect(await me.json()).toMatchObject({ tenant: 'acme' });
    });

    it("reads its own tenant's users and secrets", async () => {
      expect((await call(bound, 'GET', '/api/v1/tenants/acme/users')).status).toBe(200);
      const secret = await call(bound, 'GET', '/api/v1/tenants/acme/secrets/db-password');
      expect(secret.status).toBe(200);
      expect(await secret.json()).toMatchObject({ value: 'acme-password' });
    });

    it("is refused another tenant's users and secrets", async () => {
      const users = await call(bound, 'GET', '/api/v1/tenants/globex/users');
      expect(users.status).toBe(403);
      const secret = await call(bound, 'GET', '/api/v1/tenants/globex/secrets/db-password');
      expect(secret.status).toBe(403);
      expect(await secret.text()).not.toContain('globex-password');
    });

    it('is audited in the log of the tenant it reached into, once per minute however often it tries', async () => {
      for (let i = 0; i < 20; i += 1) {
        expect((await call(bound, 'GET', '/api/v1/tenants/globex/users')).status).toBe(403);
      }
      const refusals = async () => {
        const page = await call(
          admin,
          'GET',
          '/api/v1/audit/records?tenant=globex&action=authorization.cross_tenant_refused&limit=1000',
        );
        const { records } = (await page.json()) as {
          records: Array<{
            actor: { kind: string; id: string };
            target: string;
            attributes: Record<string, unknown>;
          }>;
        };
        return records.filter((r) => r.actor.id === 'acme-sync' && r.target === 'users.read');
      };
      // The sidecar reports without making the caller wait: the record follows within moments.
      const deadline = Date.now() + 3000;
      while ((await refusals()).length === 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const records = await refusals();
      expect(records).toHaveLength(1);
      expect(records[0]).toMatchObject({
        actor: { kind: 'app', id: 'acme-sync' },
        attributes: { action: 'users.read', actor_tenant: 'acme', client_id: 'acme-sync', refusals: 1 },
      });
      expect(records[0].attributes.decision_id).toEqual(expect.any(String));
    });

    it('has no platform-wide reach', async () => {
      expect((await call(bound, 'GET', '/v1/oauth/apps')).status).toBe(403);
    });
  });
});
