import * as grpc from '@grpc/grpc-js';
import {
  type AuthorizeResponse,
  type AuthServiceClient,
  createAuthServiceClient,
  createPolicyServiceClient,
  createTenantServiceClient,
  type EvaluateResponse,
  type PolicyServiceClient,
  type ResolveTenantResponse,
  type TenantServiceClient,
  type ValidateIsolationResponse,
} from '@platform/grpc';
import { decodeJwt } from 'jose';
import { identityOf as identity, signIn, type TestIdentity } from '../../support/internal-consent';
import {
  adminToken,
  clientCredentialsToken,
  discover,
  registerApp,
  type RegisteredApp,
} from '../../support/oauth';
import { unaryCall as call } from '../../support/grpc';
import { sharedPlatform, type TestPlatform } from '../../support/platform';

/** Its own tenants, apps and users on the shared platform. */
const ACME = 'policy-acme';
const GLOBEX = 'policy-globex';
const PORTAL = 'policy-people-portal';

describe('sidecar gRPC: Authorize, PolicyService, TenantService (user-forwarding model)', () => {
  let platform: TestPlatform;
  let portal: RegisteredApp;
  let auth: AuthServiceClient;
  let policy: PolicyServiceClient;
  let tenant: TenantServiceClient;
  /** Access tokens of users, by who they are. */
  const users = {} as Record<
    'acmeAdmin' | 'acmeViewer' | 'globexAdmin' | 'globalAdmin' | 'narrowAcmeAdmin',
    string
  >;
  let syncService: string;
  let admin: string;

  /** Signs `who` in to the portal (authorization code with PKCE) and answers the access token. */
  async function signInAs(who: TestIdentity, scope = 'users.read users.write jobs.read'): Promise<string> {
    return (await signIn(platform, portal, { identity: who, scope })).tokens.access_token;
  }

  beforeAll(async () => {
    platform = sharedPlatform();
    const as = await discover(platform);
    admin = await adminToken(as, platform);
    portal = await registerApp(platform, admin, {
      client_id: PORTAL,
      app_type: 'web',
      declared_scopes: ['users.read', 'users.write', 'jobs.read'],
      redirect_uris: ['https://people.example.test/policy/callback'],
    });
    const sync = await registerApp(platform, admin, {
      client_id: 'policy-user-sync',
      app_type: 'service',
      declared_scopes: ['users.read'],
    });
    syncService = (
      await clientCredentialsToken(as, { clientId: sync.client_id, clientSecret: sync.client_secret! })
    ).access_token;
    users.acmeAdmin = await signInAs(identity('policy-ada', ACME, ['tenant_admin']));
    users.acmeViewer = await signInAs(identity('policy-vic', ACME, ['viewer']));
    users.globexAdmin = await signInAs(identity('policy-gus', GLOBEX, ['tenant_admin']));
    users.globalAdmin = await signInAs(identity('policy-root', ACME, ['global_admin']));
    users.narrowAcmeAdmin = await signInAs(identity('policy-nat', ACME, ['tenant_admin']), 'users.read');
    auth = createAuthServiceClient(platform.sidecarAddress);
    policy = createPolicyServiceClient(platform.sidecarAddress);
    tenant = createTenantServiceClient(platform.sidecarAddress);
  });

  afterAll(async () => {
    for (const c of [auth, policy, tenant]) c?.close();
  });

  const authorize = (token: string, action: string, resourceTenant: string) =>
    call<AuthorizeResponse>((metadata, options, done) =>
      auth.Authorize({ token, action, resource_tenant: resourceTenant }, metadata, options, done),
    );

  describe('AuthService.Authorize', () => {
    it('lets a tenant_admin manage the users of its own tenant, answering its claims and the decision', async () => {
      const { error, response } = await authorize(users.acmeAdmin, 'users.write', ACME);

      expect(error).toBeNull();
      expect(response.claims).toMatchObject({
        client_id: PORTAL,
        tenant: ACME,
        roles: ['tenant_admin'],
        sub: decodeJwt(users.acmeAdmin).sub,
      });
      expect(response.decided_by).toEqual(['token-scope', 'tenant-admin-own-tenant']);
      expect(response.decision_id).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('refuses a tenant_admin of acme in globex: PERMISSION_DENIED naming the decision and tenant-isolation', async () => {
      const { error } = await authorize(users.acmeAdmin, 'users.read', GLOBEX);

      expect(error?.code).toBe(grpc.status.PERMISSION_DENIED);
      const [decisionId] = error!.metadata.get('x-decision-id');
      expect(decisionId).toMatch(/^[0-9a-f-]{36}$/);
      expect(error!.metadata.get('x-decided-by')).toEqual(['tenant-isolation']);
      expect(error!.details).toContain(String(decisionId));
    });

    it('lets a viewer read users of its tenant and refuses it writing them (default deny)', async () => {
      const read = await authorize(users.acmeViewer, 'users.read', ACME);
      const write = await authorize(users.acmeViewer, 'users.write', ACME);

      expect(read.error).toBeNull();
      expect(write.error?.code).toBe(grpc.status.PERMISSION_DENIED);
      expect(write.error!.metadata.get('x-decided-by')).toEqual([]);
      expect(write.error!.details).toContain('default deny');
    });

    it('refuses a tenant_admin whose token was granted users.read only: the scope decides', async () => {
      const { error } = await authorize(users.narrowAcmeAdmin, 'users.write', ACME);

      expect(error?.code).toBe(grpc.status.PERMISSION_DENIED);
      expect(error!.metadata.get('x-decided-by')).toEqual(['token-scope']);
    });

    it('keeps each tenant_admin in its own tenant', async () => {
      expect((await authorize(users.globexAdmin, 'users.write', GLOBEX)).error).toBeNull();
      expect((await authorize(users.globexAdmin, 'users.write', ACME)).error?.code).toBe(
        grpc.status.PERMISSION_DENIED,
      );
    });

    it('lets global_admin cross tenants', async () => {
      const { error, response } = await authorize(users.globalAdmin, 'users.write', GLOBEX);

      expect(error).toBeNull();
      expect(response.decided_by).toEqual(['token-scope', 'global-admin-all']);
    });

    it('judges a service token by its scopes only, in any tenant; the admin token may do anything', async () => {
      expect((await authorize(syncService, 'users.read', GLOBEX)).error).toBeNull();
      expect((await authorize(syncService, 'users.write', ACME)).error?.code).toBe(
        grpc.status.PERMISSION_DENIED,
      );
      expect((await authorize(admin, 'users.write', GLOBEX)).error).toBeNull();
    });

    it('refuses a tampered token with UNAUTHENTICATED', async () => {
      const tampered = `${users.globalAdmin.slice(0, -4)}AAAA`;

      const { error } = await authorize(tampered, 'users.read', ACME);

      expect(error?.code).toBe(grpc.status.UNAUTHENTICATED);
    });

    it('refuses a missing action with INVALID_ARGUMENT', async () => {
      const { error } = await authorize(users.acmeAdmin, '', ACME);

      expect(error?.code).toBe(grpc.status.INVALID_ARGUMENT);
    });
  });

  describe('TenantService', () => {
    const resolve = (token: string) =>
      call<ResolveTenantResponse>((metadata, options, done) =>
        tenant.ResolveTenant({ token }, metadata, options, done),
      );
    const isolation = (token: string, resourceTenant: string) =>
      call<ValidateIsolationResponse>((metadata, options, done) =>
        tenant.ValidateIsolation({ token, resource_tenant: resourceTenant }, metadata, options, done),
      );

    it('ResolveTenant answers the tenant and roles of a user token', async () => {
      expect((await resolve(users.globexAdmin)).response).toEqual({
        tenant: GLOBEX,
        platform_wide: false,
        roles: ['tenant_admin'],
      });
    });

    it('ResolveTenant answers platform_wide for a service token', async () => {
      expect((await resolve(syncService)).response).toEqual({ tenant: '', platform_wide: true, roles: [] });
    });

    it('ValidateIsolation allows the own tenant and refuses another with PERMISSION_DENIED', async () => {
      const own = await isolation(users.acmeAdmin, ACME);
      const other = await isolation(users.acmeAdmin, GLOBEX);

      expect(own.response.allowed).toBe(true);
      expect(other.error?.code).toBe(grpc.status.PERMISSION_DENIED);
      expect(other.error?.details).toMatch(/only global_admin crosses tenants/);
    });

    it('ValidateIsolation lets global_admin cross tenants', async () => {
      const { error, response } = await isolation(users.globalAdmin, GLOBEX);

      expect(error).toBeNull();
      expect(response.allowed).toBe(true);
    });
  });

  describe('PolicyService', () => {
    const request = {
      principal: {
        kind: 'user',
        id: 'u-1',
        client_id: PORTAL,
        tenant: ACME,
        roles: ['tenant_admin'],
        scopes: ['users.*'],
      },
      action: 'users.write',
      resource_tenant: ACME,
    };

    it('Evaluate decides a described request, enforced, with a fresh decision id each time', async () => {
      const first = await call<EvaluateResponse>((m, o, done) => policy.Evaluate(request, m, o, done));
      const second = await call<EvaluateResponse>((m, o, done) => policy.Evaluate(request, m, o, done));

      expect(first.response).toMatchObject({ decision: 'allow', enforced: true });
      expect(second.response.decision_id).not.toBe(first.response.decision_id);
    });

    it('DryRun shows what a candidate deny would change, not enforced', async () => {
      const { error, response } = await call<EvaluateResponse>((m, o, done) =>
        policy.DryRun(
          {
            request,
            candidate_policies: [
              {
                id: 'freeze-users',
                description: 'user changes frozen',
                effect: 'deny',
                roles: ['*'],
                actions: ['users.write'],
                tenants: 'any',
              },
            ],
          },
          m,
          o,
          done,
        ),
      );

      expect(error).toBeNull();
      expect(response).toMatchObject({ decision: 'deny', decided_by: ['freeze-users'], enforced: false });
    });

    it('refuses a candidate with an invalid effect with INVALID_ARGUMENT', async () => {
      const { error } = await call<EvaluateResponse>((m, o, done) =>
        policy.DryRun(
          {
            request,
            candidate_policies: [{ id: 'x', effect: 'maybe', roles: ['*'], actions: ['*'], tenants: 'any' }],
          },
          m,
          o,
          done,
        ),
      );

      expect(error?.code).toBe(grpc.status.INVALID_ARGUMENT);
    });
  });

  it('signIn (the test user of internal-consent) gets a token the sidecar authorizes for its tenant', async () => {
    const { tokens } = await signIn(platform, portal, { scope: 'users.read' });

    const { error, response } = await authorize(tokens.access_token, 'users.read', 'acme');

    expect(error).toBeNull();
    expect(response.claims?.roles).toEqual(['tenant_admin', 'viewer']);
  });
});
