import * as grpc from '@grpc/grpc-js';
import { listServices } from '../testing/reflection';
import { Logger, type INestApplicationContext } from '@nestjs/common';
import {
  type AuthorizeResponse,
  type AuthServiceClient,
  createAuthServiceClient,
  createPolicyServiceClient,
  createTenantServiceClient,
  type EvaluateRequest,
  type EvaluateResponse,
  type PolicyMessage,
  type PolicyServiceClient,
  type ResolveTenantResponse,
  type TenantServiceClient,
  type ValidateIsolationResponse,
} from '@platform/grpc';
import { service as healthService } from 'grpc-health-check';
import { Readiness } from '../health/readiness';
import { startSidecar } from '../start-sidecar';
import { FakeControlPlane } from '../testing/fake-control-plane';
import { testConfig } from '../testing/test-config';
import { createTestKey, signAccessToken, type TestKey } from '../testing/test-keys';
import { SidecarGrpcServer } from './sidecar-grpc.server';
import { call } from '../testing/grpc-call';

type Callback<Res> = (error: grpc.ServiceError | null, response?: Res) => void;

interface Running {
  app: INestApplicationContext;
  address: string;
  auth: AuthServiceClient;
  policy: PolicyServiceClient;
  tenant: TenantServiceClient;
  health: grpc.Client & { Check(request: { service: string }, callback: Callback<{ status: string }>): void };
}

async function boot(controlPlane: FakeControlPlane): Promise<Running> {
  const app = await startSidecar(
    { config: testConfig(), controlPlane },
    { logger: false, abortOnError: false },
  );
  const address = `127.0.0.1:${app.get(SidecarGrpcServer).port}`;
  const Health = grpc.makeClientConstructor(
    healthService as unknown as grpc.ServiceDefinition,
    'grpc.health.v1.Health',
  );
  return {
    app,
    address,
    auth: createAuthServiceClient(address),
    policy: createPolicyServiceClient(address),
    tenant: createTenantServiceClient(address),
    health: new Health(address, grpc.credentials.createInsecure()) as unknown as Running['health'],
  };
}

const none = () => new grpc.Metadata();

const userPrincipal = (roles: string[], tenant = 'acme', scopes = ['users.*', 'jobs.*', 'secrets.*']) => ({
  kind: 'user',
  id: 'user-1',
  client_id: 'portal',
  tenant,
  roles,
  scopes,
});

const freezeSecrets: PolicyMessage = {
  id: 'freeze-secrets',
  description: 'secrets are frozen during the audit',
  effect: 'deny',
  roles: ['*'],
  actions: ['secrets.*'],
  tenants: 'any',
};

describe('sidecar gRPC authorization (PolicyService, TenantService, AuthService.Authorize)', () => {
  let key: TestKey;
  let sidecar: Running;

  /** A user token as the authorization-code grant issues it (every user token has its grant). */
  const userToken = (roles: string[], tenant = 'acme', scope = 'users.read users.write jobs.read') =>
    signAccessToken(key, {
      claims: {
        sub: `user-${tenant}-${roles.join('-')}`,
        client_id: 'portal',
        scope,
        tenant,
        roles,
        grant_id: `grant-${tenant}`,
      },
    });
  /** A client_credentials token of the app `worker`, bound to `tenant` when given. */
  const serviceToken = (scope: string, tenant?: string) =>
    signAccessToken(key, {
      claims: { sub: 'worker', client_id: 'worker', scope, ...(tenant && { tenant }) },
    });

  beforeAll(async () => {
    Logger.overrideLogger(false);
    key = await createTestKey('RS256');
    const controlPlane = new FakeControlPlane();
    controlPlane.publish(key.publicJwk);
    sidecar = await boot(controlPlane);
    await sidecar.app.get(Readiness).whenReady();
  });

  afterAll(async () => {
    for (const client of [sidecar.auth, sidecar.policy, sidecar.tenant, sidecar.health]) client.close();
    await sidecar.app.close();
  });

  const evaluate = (request: EvaluateRequest) =>
    call<EvaluateResponse>((done) => sidecar.policy.Evaluate(request, none(), {}, done));

  describe('PolicyService.Evaluate', () => {
    it('allows what a role policy and the scope allow, naming both, enforced', async () => {
      const { error, response } = await evaluate({
        principal: userPrincipal(['tenant_admin']),
        action: 'users.write',
        resource_tenant: 'acme',
      });

      expect(error).toBeNull();
      expect(response).toMatchObject({
        decision: 'allow',
        decided_by: ['token-scope', 'tenant-admin-own-tenant'],
        enforced: true,
      });
      expect(response.decision_id).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('denies by default when no policy allows, naming no policy', async () => {
      const { error, response } = await evaluate({
        principal: userPrincipal(['viewer']),
        action: 'users.write',
        resource_tenant: 'acme',
      });

      expect(error).toBeNull();
      expect(response).toMatchObject({ decision: 'deny', decided_by: [], enforced: true });
      expect(response.reason).toMatch(/default deny/);
    });

    it('lets an explicit deny win over an allow and names it', async () => {
      const { response } = await evaluate({
        principal: userPrincipal(['tenant_admin']),
        action: 'users.read',
        resource_tenant: 'globex',
      });

      expect(response).toMatchObject({ decision: 'deny', decided_by: ['tenant-isolation'] });
      expect(response.reason).toMatch(/another tenant/);
    });

    it('names the scope check when the token scope does not cover the action', async () => {
      const { response } = await evaluate({
        principal: userPrincipal(['tenant_admin'], 'acme', ['users.read']),
        action: 'users.write',
        resource_tenant: 'acme',
      });

      expect(response).toMatchObject({ decision: 'deny', decided_by: ['token-scope'] });
    });

    it('judges a service principal by its scopes only; admin.* covers every action', async () => {
      const service = (scopes: string[]) => ({ kind: 'service', id: 'worker', client_id: 'worker', scopes });

      const covered = await evaluate({
        principal: service(['jobs.*']),
        action: 'jobs.write',
        resource_tenant: 'acme',
      });
      const uncovered = await evaluate({ principal: service(['jobs.read']), action: 'users.read' });
      const admin = await evaluate({
        principal: service(['admin.*']),
        action: 'users.write',
        resource_tenant: 'globex',
      });

      expect(covered.response).toMatchObject({ decision: 'allow', decided_by: ['token-scope'] });
      expect(uncovered.response).toMatchObject({ decision: 'deny', decided_by: ['token-scope'] });
      expect(admin.response).toMatchObject({ decision: 'allow', decided_by: ['token-scope'] });
    });

    it('gives every decision its own id', async () => {
      const request = { principal: userPrincipal(['user']), action: 'jobs.read', resource_tenant: 'acme' };

      const ids = await Promise.all([1, 2, 3, 4, 5].map(() => evaluate(request)));

      expect(new Set(ids.map(({ response }) => response.decision_id)).size).toBe(5);
    });

    it.each<[string, EvaluateRequest]>([
      ['a missing principal', { action: 'jobs.read' }],
      ['a missing action', { principal: userPrincipal(['user']), action: '' }],
      ['a wildcard action', { principal: userPrincipal(['user']), action: 'jobs.*' }],
      [
        'an unknown principal kind',
        { principal: { ...userPrincipal(['user']), kind: 'robot' }, action: 'jobs.read' },
      ],
      ['a user principal without tenant', { principal: userPrincipal(['user'], ''), action: 'jobs.read' }],
      ['a principal without id', { principal: { ...userPrincipal(['user']), id: '' }, action: 'jobs.read' }],
    ])('refuses %s with INVALID_ARGUMENT', async (_case, request) => {
      const { error } = await evaluate(request);

      expect(error).toMatchObject({ code: grpc.status.INVALID_ARGUMENT });
    });
  });

  describe('PolicyService.DryRun', () => {
    const request = {
      principal: userPrincipal(['tenant_admin']),
      action: 'secrets.write',
      resource_tenant: 'acme',
    };

    it('shows what a candidate policy would change, without enforcing it', async () => {
      const before = await evaluate(request);
      const { error, response } = await call<EvaluateResponse>((done) =>
        sidecar.policy.DryRun({ request, candidate_policies: [freezeSecrets] }, none(), {}, done),
      );

      expect(before.response).toMatchObject({ decision: 'allow', enforced: true });
      expect(error).toBeNull();
      expect(response).toMatchObject({ decision: 'deny', decided_by: ['freeze-secrets'], enforced: false });
      expect(response.reason).toBe('secrets are frozen during the audit');
    });

    it('leaves the active policies as they were', async () => {
      await call((done) =>
        sidecar.policy.DryRun({ request, candidate_policies: [freezeSecrets] }, none(), {}, done),
      );

      expect((await evaluate(request)).response.decision).toBe('allow');
    });

    it('answers the active decision, not enforced, without candidates', async () => {
      const { response } = await call<EvaluateResponse>((done) =>
        sidecar.policy.DryRun({ request }, none(), {}, done),
      );

      expect(response).toMatchObject({ decision: 'allow', enforced: false });
    });

    it.each<[string, Partial<PolicyMessage>]>([
      ['an invalid effect', { effect: 'permit' }],
      ['invalid tenants', { tenants: 'everywhere' }],
      ['a candidate without id', { id: '' }],
      ['a candidate without actions', { actions: [] }],
    ])('refuses %s with INVALID_ARGUMENT', async (_case, change) => {
      const { error } = await call((done) =>
        sidecar.policy.DryRun(
          { request, candidate_policies: [{ ...freezeSecrets, ...change }] },
          none(),
          {},
          done,
        ),
      );

      expect(error).toMatchObject({ code: grpc.status.INVALID_ARGUMENT });
    });

    it('refuses a dry run without request with INVALID_ARGUMENT', async () => {
      const { error } = await call((done) =>
        sidecar.policy.DryRun({ candidate_policies: [] }, none(), {}, done),
      );

      expect(error).toMatchObject({ code: grpc.status.INVALID_ARGUMENT, details: 'request is required' });
    });
  });

  describe('TenantService.ResolveTenant', () => {
    it('answers the tenant and roles of a user token', async () => {
      const token = await userToken(['tenant_admin', 'user']);

      const { error, response } = await call<ResolveTenantResponse>((done) =>
        sidecar.tenant.ResolveTenant({ token }, none(), {}, done),
      );

      expect(error).toBeNull();
      expect(response).toEqual({ tenant: 'acme', platform_wide: false, roles: ['tenant_admin', 'user'] });
    });

    it('answers platform_wide for the token of an app bound to no tenant', async () => {
      const token = await serviceToken('jobs.read');

      const { response } = await call<ResolveTenantResponse>((done) =>
        sidecar.tenant.ResolveTenant({ token }, none(), {}, done),
      );

      expect(response).toEqual({ tenant: '', platform_wide: true, roles: [] });
    });

    it('answers the tenant of an app bound to one, without roles', async () => {
      const token = await serviceToken('jobs.read', 'acme');

      const { response } = await call<ResolveTenantResponse>((done) =>
        sidecar.tenant.ResolveTenant({ token }, none(), {}, done),
      );

      expect(response).toEqual({ tenant: 'acme', platform_wide: false, roles: [] });
    });

    it('refuses an invalid token with UNAUTHENTICATED', async () => {
      const token = await signAccessToken(key, { iat: Math.floor(Date.now() / 1000) - 7200 });

      const { error } = await call((done) => sidecar.tenant.ResolveTenant({ token }, none(), {}, done));

      expect(error).toMatchObject({ code: grpc.status.UNAUTHENTICATED, details: 'token expired' });
    });

    it('refuses an empty token with INVALID_ARGUMENT', async () => {
      const { error } = await call((done) => sidecar.tenant.ResolveTenant({ token: '' }, none(), {}, done));

      expect(error).toMatchObject({ code: grpc.status.INVALID_ARGUMENT });
    });
  });

  describe('TenantService.ValidateIsolation', () => {
    const validate = (token: string, resourceTenant: string) =>
      call<ValidateIsolationResponse>((done) =>
        sidecar.tenant.ValidateIsolation({ token, resource_tenant: resourceTenant }, none(), {}, done),
      );

    it('allows a user in its own tenant', async () => {
      const { error, response } = await validate(await userToken(['viewer']), 'acme');

      expect(error).toBeNull();
      expect(response.allowed).toBe(true);
    });

    it('refuses a tenant_admin of acme reaching into globex with PERMISSION_DENIED and the reason', async () => {
      const { error } = await validate(await userToken(['tenant_admin']), 'globex');

      expect(error).toMatchObject({ code: grpc.status.PERMISSION_DENIED });
      expect(error?.details).toMatch(/only global_admin crosses tenants/);
    });

    it('allows a global_admin across tenants', async () => {
      const { error, response } = await validate(await userToken(['global_admin']), 'globex');

      expect(error).toBeNull();
      expect(response).toMatchObject({ allowed: true, reason: expect.stringMatching(/global_admin/) });
    });

    it('allows the token of an app bound to no tenant, which acts platform-wide', async () => {
      const { response } = await validate(await serviceToken('jobs.read'), 'globex');

      expect(response.allowed).toBe(true);
    });

    it('refuses an app bound to acme reaching into globex with PERMISSION_DENIED', async () => {
      const own = await validate(await serviceToken('jobs.read', 'acme'), 'acme');
      const other = await validate(await serviceToken('jobs.read', 'acme'), 'globex');

      expect(own.response.allowed).toBe(true);
      expect(other.error).toMatchObject({ code: grpc.status.PERMISSION_DENIED });
    });

    it('refuses a missing resource_tenant with INVALID_ARGUMENT', async () => {
      const { error } = await validate(await userToken(['viewer']), '');

      expect(error).toMatchObject({ code: grpc.status.INVALID_ARGUMENT });
    });

    it('refuses an invalid token with UNAUTHENTICATED', async () => {
      const { error } = await validate('not-a-token', 'acme');

      expect(error).toMatchObject({ code: grpc.status.UNAUTHENTICATED });
    });
  });

  describe('AuthService.Authorize', () => {
    const authorize = (token: string, action: string, resourceTenant = '', audience?: string) =>
      call<AuthorizeResponse>((done) =>
        sidecar.auth.Authorize(
          { token, action, resource_tenant: resourceTenant, audience },
          none(),
          {},
          done,
        ),
      );

    it('answers the claims and the decision of an allowed user', async () => {
      const token = await userToken(['viewer']);

      const { error, response } = await authorize(token, 'users.read', 'acme');

      expect(error).toBeNull();
      expect(response.claims).toMatchObject({ sub: 'user-acme-viewer', tenant: 'acme', roles: ['viewer'] });
      expect(response.decided_by).toEqual(['token-scope', 'viewer-own-tenant']);
      expect(response.decision_id).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('refuses with PERMISSION_DENIED whose details and trailers name the decision id and policies', async () => {
      const token = await userToken(['tenant_admin']);

      const { error } = await authorize(token, 'users.write', 'globex');

      expect(error).toMatchObject({ code: grpc.status.PERMISSION_DENIED });
      const [decisionId] = error!.metadata.get('x-decision-id');
      expect(decisionId).toMatch(/^[0-9a-f-]{36}$/);
      expect(error!.metadata.get('x-decided-by')).toEqual(['tenant-isolation']);
      expect(error!.details).toContain(`decision ${String(decisionId)}`);
      expect(error!.details).toContain('tenant-isolation');
    });

    it('refuses a user whose token scope does not cover the action, naming token-scope', async () => {
      const token = await userToken(['tenant_admin'], 'acme', 'users.read');

      const { error } = await authorize(token, 'users.write', 'acme');

      expect(error).toMatchObject({ code: grpc.status.PERMISSION_DENIED });
      expect(error!.metadata.get('x-decided-by')).toEqual(['token-scope']);
    });

    it('refuses a default deny with a decision id and no deciding policy', async () => {
      const token = await userToken(['viewer']);

      const { error } = await authorize(token, 'users.write', 'acme');

      expect(error).toMatchObject({ code: grpc.status.PERMISSION_DENIED });
      expect(error!.metadata.get('x-decision-id')).toHaveLength(1);
      expect(error!.metadata.get('x-decided-by')).toEqual([]);
      expect(error!.details).toContain('default deny');
    });

    it('confines an app bound to acme to acme, refusing globex and platform-wide actions', async () => {
      const own = await authorize(await serviceToken('users.read', 'acme'), 'users.read', 'acme');
      const other = await authorize(await serviceToken('users.read', 'acme'), 'users.read', 'globex');
      const platform = await authorize(await serviceToken('users.read', 'acme'), 'users.read');

      expect(own.error).toBeNull();
      for (const { error } of [other, platform]) {
        expect(error).toMatchObject({ code: grpc.status.PERMISSION_DENIED });
        expect(error!.metadata.get('x-decided-by')).toEqual(['tenant-binding']);
      }
    });

    it('lets a service token act by its scopes, bypassing roles', async () => {
      const allowed = await authorize(await serviceToken('users.read'), 'users.read', 'globex');
      const refused = await authorize(await serviceToken('users.read'), 'users.write', 'globex');
      const admin = await authorize(await serviceToken('admin.*'), 'users.write', 'globex');

      expect(allowed.error).toBeNull();
      expect(allowed.response.claims?.client_id).toBe('worker');
      expect(refused.error).toMatchObject({ code: grpc.status.PERMISSION_DENIED });
      expect(admin.error).toBeNull();
    });

    it('decides a token restricted to the resource the caller names, and only there', async () => {
      const resource = 'https://api.reports.example';
      const token = await signAccessToken(key, {
        claims: { sub: 'worker', client_id: 'worker', scope: 'users.read', aud: resource },
      });

      const named = await authorize(token, 'users.read', 'acme', resource);
      const unnamed = await authorize(token, 'users.read', 'acme');
      const issuerToken = await authorize(await serviceToken('users.read'), 'users.read', 'acme', resource);

      expect(named.error).toBeNull();
      expect(named.response.claims?.aud).toBe(resource);
      for (const { error } of [unnamed, issuerToken]) {
        expect(error).toMatchObject({ code: grpc.status.UNAUTHENTICATED, details: 'wrong audience' });
      }
    });

    it('lets a read-only impersonation token read, nothing more', async () => {
      const token = await signAccessToken(key, {
        claims: {
          sub: 'user-acme-viewer',
          client_id: 'console',
          scope: 'users.read users.write',
          tenant: 'acme',
          roles: ['tenant_admin'],
          grant_id: 'grant-acme',
          act: { sub: 'support-1', client_id: 'console' },
          impersonation: 'read_only',
        },
      });

      const read = await authorize(token, 'users.read', 'acme');
      const write = await authorize(token, 'users.write', 'acme');

      expect(read.error).toBeNull();
      expect(read.response.claims).toMatchObject({
        act: { sub: 'support-1', client_id: 'console', act: null },
        impersonation: 'read_only',
      });
      expect(write.error).toMatchObject({ code: grpc.status.PERMISSION_DENIED });
    });

    it('refuses a bad token with UNAUTHENTICATED before deciding anything', async () => {
      const token = await userToken(['global_admin']);
      const tampered = `${token.slice(0, -4)}AAAA`;

      const { error } = await authorize(tampered, 'users.read', 'acme');

      expect(error).toMatchObject({ code: grpc.status.UNAUTHENTICATED });
    });

    it('refuses an expired token with UNAUTHENTICATED', async () => {
      const token = await signAccessToken(key, {
        iat: Math.floor(Date.now() / 1000) - 7200,
        claims: { tenant: 'acme', roles: ['global_admin'], scope: 'users.read' },
      });

      const { error } = await authorize(token, 'users.read', 'acme');

      expect(error).toMatchObject({ code: grpc.status.UNAUTHENTICATED, details: 'token expired' });
    });

    it.each([
      ['a missing action', ''],
      ['a wildcard action', 'users.*'],
    ])('refuses %s with INVALID_ARGUMENT', async (_case, action) => {
      const { error } = await authorize(await userToken(['viewer']), action, 'acme');

      expect(error).toMatchObject({ code: grpc.status.INVALID_ARGUMENT });
    });

    it('refuses an empty token with INVALID_ARGUMENT', async () => {
      const { error } = await authorize('', 'users.read', 'acme');

      expect(error).toMatchObject({ code: grpc.status.INVALID_ARGUMENT });
    });
  });

  it.each([
    '',
    'platform.auth.v1.AuthService',
    'platform.policy.v1.PolicyService',
    'platform.tenant.v1.TenantService',
  ])('the health service reports %p as SERVING', async (service) => {
    const { error, response } = await call<{ status: string }>((done) =>
      sidecar.health.Check({ service }, done),
    );

    expect(error).toBeNull();
    expect(response.status).toBe('SERVING');
  });

  it('server reflection lists the auth, policy, tenant and health services', async () => {
    const services = await listServices(sidecar.address);

    expect(services).toEqual(
      expect.arrayContaining([
        'platform.auth.v1.AuthService',
        'platform.policy.v1.PolicyService',
        'platform.tenant.v1.TenantService',
        'grpc.health.v1.Health',
      ]),
    );
  });

  describe('while the key set is still loading', () => {
    let loading: Running;
    let release: () => void;

    beforeAll(async () => {
      const controlPlane = new FakeControlPlane();
      controlPlane.publish(key.publicJwk);
      release = controlPlane.holdJwks();
      loading = await boot(controlPlane);
    });

    afterAll(async () => {
      release();
      for (const client of [loading.auth, loading.policy, loading.tenant, loading.health]) client.close();
      await loading.app.close();
    });

    it.each(['platform.policy.v1.PolicyService', 'platform.tenant.v1.TenantService'])(
      'the health service reports %p as NOT_SERVING',
      async (service) => {
        const { response } = await call<{ status: string }>((done) =>
          loading.health.Check({ service }, done),
        );

        expect(response.status).toBe('NOT_SERVING');
      },
    );

    it('Authorize and ResolveTenant fail closed with UNAVAILABLE', async () => {
      const token = await userToken(['global_admin']);

      const authorized = await call((done) =>
        loading.auth.Authorize({ token, action: 'users.read', resource_tenant: 'acme' }, none(), {}, done),
      );
      const resolved = await call((done) => loading.tenant.ResolveTenant({ token }, none(), {}, done));

      expect(authorized.error).toMatchObject({ code: grpc.status.UNAVAILABLE });
      expect(resolved.error).toMatchObject({ code: grpc.status.UNAVAILABLE });
    });
  });
});
