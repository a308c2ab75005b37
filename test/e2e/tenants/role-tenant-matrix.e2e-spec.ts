import {
  createSession,
  identityOf as identity,
  signIn,
  type TestIdentity,
} from '../../support/internal-consent';
import {
  adminToken,
  clientCredentialsToken,
  discover,
  registerApp,
  type RegisteredApp,
} from '../../support/oauth';
import { sharedPlatform, type TestPlatform } from '../../support/platform';

type Role = 'global_admin' | 'tenant_admin' | 'user' | 'viewer';
type Operation = 'list users' | 'get user' | 'set roles';
type Where = 'own' | 'other';

const OWN = 'acme';
const OTHER = 'globex';

/** Who may do what: the default role bundle (libs/domain/src/policy/default-policies.ts). */
const ALLOWED: Record<Role, Record<Where, readonly Operation[]>> = {
  global_admin: {
    own: ['list users', 'get user', 'set roles'],
    other: ['list users', 'get user', 'set roles'],
  },
  tenant_admin: { own: ['list users', 'get user', 'set roles'], other: [] },
  user: { own: ['list users', 'get user'], other: [] },
  viewer: { own: ['list users', 'get user'], other: [] },
};
const OPERATIONS: readonly Operation[] = ['list users', 'get user', 'set roles'];
const ROLES: readonly Role[] = ['global_admin', 'tenant_admin', 'user', 'viewer'];

const MATRIX = ROLES.flatMap((role) =>
  (['own', 'other'] as const).flatMap((where) =>
    OPERATIONS.map((operation) => ({
      role,
      where,
      operation,
      expected: ALLOWED[role][where].includes(operation) ? 200 : 403,
    })),
  ),
);

describe('/api/v1/tenants/{tenant}/users: roles and tenants', () => {
  let platform: TestPlatform;
  let app: RegisteredApp;
  let admin: string;
  const tokens = new Map<Role, string>();
  /** A plain user of each tenant, whose roles the matrix reads and sets. */
  const targets = new Map<string, string>();

  /** A user token for the app, through the internal session and consent routes (no browser). */
  async function userToken(who: TestIdentity): Promise<string> {
    return (await signIn(platform, app, { identity: who })).tokens.access_token;
  }

  beforeAll(async () => {
    platform = sharedPlatform();
    const as = await discover(platform);
    admin = await adminToken(as, platform);
    app = await registerApp(platform, admin, {
      client_id: 'tenant-console',
      app_type: 'web',
      declared_scopes: ['users.read', 'users.write', 'jobs.*'],
      redirect_uris: ['http://127.0.0.1:9/auth/callback'],
    });
    for (const role of ROLES) tokens.set(role, await userToken(identity(`${role}-of-acme`, OWN, [role])));
    for (const tenant of [OWN, OTHER]) {
      const { user } = await createSession(platform, identity(`member-of-${tenant}`, tenant, ['user']));
      targets.set(tenant, user.id);
    }
  });

  function call(token: string, operation: Operation, tenant: string, roles: unknown = ['user']) {
    const users = `${platform.baseUrl}/api/v1/tenants/${tenant}/users`;
    const headers = { authorization: `Bearer ${token}` };
    switch (operation) {
      case 'list users':
        return fetch(users, { headers });
      case 'get user':
        return fetch(`${users}/${targets.get(tenant)}`, { headers });
      case 'set roles':
        return fetch(`${users}/${targets.get(tenant)}/roles`, {
          method: 'PUT',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify({ roles }),
        });
    }
  }

  it.each(MATRIX)(
    '$role: $operation in the $where tenant answers $expected',
    async ({ role, operation, where, expected }) => {
      const tenant = where === 'own' ? OWN : OTHER;
      const response = await call(tokens.get(role)!, operation, tenant);
      expect(response.status).toBe(expected);
      if (expected === 403) {
        expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
        expect(await response.json()).toMatchObject({ error: 'insufficient_scope' });
      } else if (operation === 'list users') {
        const users = (await response.json()) as Array<{ id: string; tenant: string }>;
        expect(users.map((u) => u.id)).toContain(targets.get(tenant));
        expect(users.every((u) => u.tenant === tenant)).toBe(true);
      } else {
        expect(await response.json()).toMatchObject({ id: targets.get(tenant), tenant, roles: ['user'] });
      }
    },
  );

  describe('a service token acts as its app', () => {
    it.each(OPERATIONS.flatMap((operation) => [OWN, OTHER].map((tenant) => ({ operation, tenant }))))(
      'with admin.*: $operation in $tenant is allowed',
      async ({ operation, tenant }) => {
        expect((await call(admin, operation, tenant)).status).toBe(200);
      },
    );

    it.each(OPERATIONS)('without the scope: %s is 403', async (operation) => {
      const worker = await registerApp(platform, admin, {
        client_id: `worker-${operation.replace(/ /g, '-')}`,
        declared_scopes: ['jobs.read'],
      });
      const token = (
        await clientCredentialsToken(await discover(platform), {
          clientId: worker.client_id,
          clientSecret: worker.client_secret!,
        })
      ).access_token;
      const response = await call(token, operation, OWN);
      expect(response.status).toBe(403);
      expect(await response.json()).toMatchObject({ error: 'insufficient_scope' });
    });
  });

  describe('PUT /api/v1/tenants/{tenant}/users/{id}/roles', () => {
    it('refuses a tenant_admin granting global_admin, and lets a global_admin do it', async () => {
      const refused = await call(tokens.get('tenant_admin')!, 'set roles', OWN, ['global_admin']);
      expect(refused.status).toBe(403);
      const granted = await call(tokens.get('global_admin')!, 'set roles', OWN, ['global_admin']);
      expect(granted.status).toBe(200);
      // and back, so the matrix reads the same user whatever the order
      const reset = await call(tokens.get('global_admin')!, 'set roles', OWN, ['user']);
      expect(reset.status).toBe(200);
    });

    it('refuses a service with users.write only granting global_admin; admin.* may', async () => {
      const manager = await registerApp(platform, admin, {
        client_id: 'user-manager',
        declared_scopes: ['users.read', 'users.write'],
      });
      const token = (
        await clientCredentialsToken(await discover(platform), {
          clientId: manager.client_id,
          clientSecret: manager.client_secret!,
        })
      ).access_token;
      expect((await call(token, 'set roles', OTHER, ['viewer', 'user'])).status).toBe(200);
      expect((await call(token, 'set roles', OTHER, ['global_admin'])).status).toBe(403);
      expect((await call(admin, 'set roles', OTHER, ['global_admin'])).status).toBe(200);
      expect((await call(admin, 'set roles', OTHER, ['user'])).status).toBe(200);
    });

    it('refuses a role outside the bundle with 400', async () => {
      const response = await call(tokens.get('tenant_admin')!, 'set roles', OWN, ['superuser']);
      expect(response.status).toBe(400);
      expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    });
  });

  it('answers 404 for a user of another tenant reached through the own tenant', async () => {
    const response = await fetch(`${platform.baseUrl}/api/v1/tenants/${OWN}/users/${targets.get(OTHER)}`, {
      headers: { authorization: `Bearer ${tokens.get('tenant_admin')}` },
    });
    expect(response.status).toBe(404);
  });

  it('answers 401 without a token', async () => {
    expect((await fetch(`${platform.baseUrl}/api/v1/tenants/${OWN}/users`)).status).toBe(401);
  });
});
