import { decide, isAdminToken } from './decide';
import { principalOfClaims } from './principal';

const serviceClaims = { sub: 'admin', client_id: 'admin', scope: 'admin.*' };
const userClaims = (roles: string[], scope: string, tenant = 'acme') => ({
  sub: 'u1',
  client_id: 'portal',
  scope,
  tenant,
  roles,
  grant_id: 'g1',
});

describe(isAdminToken.name, () => {
  it('takes the unbound admin app (admin.*) for an admin token', () => {
    expect(isAdminToken(serviceClaims)).toBe(true);
  });

  it('takes a user token with the global_admin role for an admin token, whatever its scopes', () => {
    expect(isAdminToken(userClaims(['user', 'global_admin'], 'jobs.read'))).toBe(true);
  });

  it('never takes a user token for an admin token through its scope', () => {
    expect(isAdminToken(userClaims(['viewer'], 'jobs.read admin.*', 'globex'))).toBe(false);
    expect(isAdminToken(userClaims(['tenant_admin'], 'admin.*'))).toBe(false);
  });

  it('does not take a narrower or look-alike admin scope for admin.*', () => {
    expect(isAdminToken({ ...serviceClaims, scope: 'admin.read' })).toBe(false);
    expect(isAdminToken({ ...serviceClaims, scope: 'admins.*' })).toBe(false);
  });

  it('does not take an app bound to a tenant for a platform administrator, even with admin.*', () => {
    expect(isAdminToken({ ...serviceClaims, tenant: 'acme' })).toBe(false);
  });
});

describe(principalOfClaims.name, () => {
  it('reads a token with a grant as its user, in its tenant with its roles', () => {
    expect(principalOfClaims(userClaims(['viewer'], 'jobs.read'))).toEqual({
      kind: 'user',
      id: 'u1',
      clientId: 'portal',
      tenant: 'acme',
      roles: ['viewer'],
      scopes: ['jobs.read'],
    });
  });

  it('reads a token without a grant as its app, bound to the tenant it carries', () => {
    expect(principalOfClaims({ sub: 'w', client_id: 'w', scope: 'users.read', tenant: 'acme' })).toEqual({
      kind: 'service',
      id: 'w',
      clientId: 'w',
      scopes: ['users.read'],
      tenant: 'acme',
    });
    expect(principalOfClaims({ sub: 'w', client_id: 'w', scope: '', tenant: '' })).not.toHaveProperty(
      'tenant',
    );
  });
});

describe(decide.name, () => {
  const bound = principalOfClaims({
    sub: 'w',
    client_id: 'w',
    scope: 'users.read secrets.read',
    tenant: 'acme',
  });
  const unbound = principalOfClaims({ sub: 'w', client_id: 'w', scope: 'users.read jobs.work' });

  it('confines a bound app to its tenant, naming the cross-tenant refusal', () => {
    expect(decide(bound, 'users.read', 'acme').effect).toBe('allow');
    expect(decide(bound, 'secrets.read', 'globex')).toMatchObject({
      effect: 'deny',
      decidedBy: ['tenant-binding'],
      crossTenant: true,
    });
    expect(decide(bound, 'users.read', '')).toMatchObject({ effect: 'deny', decidedBy: ['tenant-binding'] });
  });

  it('lets an unbound app act platform-wide within its scopes only', () => {
    expect(decide(unbound, 'users.read', 'globex').effect).toBe('allow');
    expect(decide(unbound, 'jobs.work', '').effect).toBe('allow');
    expect(decide(unbound, 'secrets.read', 'globex')).toMatchObject({
      effect: 'deny',
      decidedBy: ['token-scope'],
    });
  });

  it('never lets a user work jobs or introspect, whatever its roles and scopes', () => {
    const admin = principalOfClaims(userClaims(['global_admin'], 'jobs.* admin.* tokens.introspect'));
    expect(decide(admin, 'jobs.work', 'acme')).toMatchObject({ effect: 'deny', decidedBy: ['service-only'] });
    expect(decide(admin, 'tokens.introspect')).toMatchObject({ effect: 'deny', decidedBy: ['service-only'] });
  });

  it('gives a user no more than its roles through a broad scope', () => {
    const viewer = principalOfClaims(userClaims(['viewer'], 'admin.* jobs.* secrets.*'));
    expect(decide(viewer, 'jobs.read', 'acme').effect).toBe('allow');
    expect(decide(viewer, 'jobs.write', 'acme').effect).toBe('deny');
    expect(decide(viewer, 'secrets.read', 'acme').effect).toBe('deny');
    // admin.* is not a wildcard over every action for a user: the scope check refuses first.
    expect(decide(viewer, 'users.read', 'acme')).toMatchObject({
      effect: 'deny',
      decidedBy: ['token-scope'],
    });
  });

  it('gives a user no more than its scopes through its roles', () => {
    const tenantAdmin = principalOfClaims(userClaims(['tenant_admin'], 'jobs.read'));
    expect(decide(tenantAdmin, 'jobs.read', 'acme').effect).toBe('allow');
    expect(decide(tenantAdmin, 'jobs.write', 'acme')).toMatchObject({
      effect: 'deny',
      decidedBy: ['token-scope'],
    });
  });

  it('marks a user reaching into another tenant as a cross-tenant refusal', () => {
    const tenantAdmin = principalOfClaims(userClaims(['tenant_admin'], 'jobs.*'));
    expect(decide(tenantAdmin, 'jobs.read', 'globex')).toMatchObject({
      effect: 'deny',
      decidedBy: ['tenant-isolation'],
      crossTenant: true,
    });
  });
});

describe('a platform-wide resource', () => {
  it('is no user’s own: only a global_admin reaches it', () => {
    const tenantAdmin = principalOfClaims(userClaims(['tenant_admin'], 'audit.write'));
    const globalAdmin = principalOfClaims(userClaims(['global_admin'], 'audit.write'));
    expect(decide(tenantAdmin, 'audit.write', '')).toMatchObject({
      effect: 'deny',
      decidedBy: ['tenant-isolation'],
    });
    expect(decide(tenantAdmin, 'audit.write', '')).not.toHaveProperty('crossTenant');
    expect(decide(globalAdmin, 'audit.write', '').effect).toBe('allow');
  });
});

describe('an impersonation token', () => {
  const impersonating = (impersonation: string) =>
    principalOfClaims({ ...userClaims(['tenant_admin'], 'jobs.* users.* secrets.*'), impersonation });

  it('of a read-only tenant reads and does nothing else, whatever its scopes and roles', () => {
    const readOnly = impersonating('read_only');
    expect(decide(readOnly, 'jobs.read', 'acme').effect).toBe('allow');
    expect(decide(readOnly, 'users.read', 'acme').effect).toBe('allow');
    for (const action of ['jobs.write', 'secrets.write', 'users.write', 'users.impersonate', 'admin.*']) {
      expect(decide(readOnly, action, 'acme')).toMatchObject({
        effect: 'deny',
        decidedBy: ['impersonation-read-only'],
      });
    }
  });

  it('with full rights is the user it impersonates', () => {
    const full = impersonating('full');
    expect(decide(full, 'jobs.write', 'acme').effect).toBe('allow');
    expect(decide(full, 'jobs.write', 'globex').effect).toBe('deny');
  });
});
