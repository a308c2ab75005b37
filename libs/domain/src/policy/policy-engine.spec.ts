import { DEFAULT_POLICIES } from './default-policies';
import type { Policy, PolicyPrincipal } from './policy';
import { PolicyEngine } from './policy-engine';

/** Every scope a user token of the portal can carry, so that only roles decide. */
const PORTAL_SCOPES = ['jobs.*', 'files.*', 'secrets.*', 'audit.write', 'users.*', 'apps.write'];

const user = (roles: string[], tenant = 'acme', scopes: string[] = PORTAL_SCOPES): PolicyPrincipal => ({
  kind: 'user',
  id: 'u1',
  clientId: 'portal',
  tenant,
  roles,
  scopes,
});
const service = (scopes: string[]): PolicyPrincipal => ({
  kind: 'service',
  id: 'worker',
  clientId: 'worker',
  scopes,
});

describe(PolicyEngine.name, () => {
  const engine = new PolicyEngine(DEFAULT_POLICIES);

  it('denies by default when no policy matches, naming no policy', () => {
    const decision = engine.evaluate({
      principal: user(['viewer']),
      action: 'secrets.write',
      resourceTenant: 'acme',
    });
    expect(decision).toMatchObject({ effect: 'deny', decidedBy: [] });
    expect(decision.reason).toMatch(/default deny/);
  });

  it('denies a user without roles everything', () => {
    expect(engine.evaluate({ principal: user([]), action: 'jobs.read', resourceTenant: 'acme' }).effect).toBe(
      'deny',
    );
  });

  it.each([
    ['viewer', 'jobs.read', 'allow'],
    ['viewer', 'jobs.write', 'deny'],
    ['user', 'jobs.write', 'allow'],
    ['user', 'secrets.write', 'deny'],
    ['user', 'users.write', 'deny'],
    ['tenant_admin', 'secrets.write', 'allow'],
    ['tenant_admin', 'users.write', 'allow'],
    ['tenant_admin', 'apps.write', 'deny'],
    ['global_admin', 'apps.write', 'allow'],
  ])('in its own tenant, %s may %s: %s', (role, action, effect) => {
    expect(engine.evaluate({ principal: user([role]), action, resourceTenant: 'acme' }).effect).toBe(effect);
  });

  it('lets an explicit deny win over an allow: a tenant_admin cannot reach into another tenant', () => {
    const decision = engine.evaluate({
      principal: user(['tenant_admin']),
      action: 'jobs.read',
      resourceTenant: 'globex',
    });
    expect(decision).toMatchObject({ effect: 'deny', decidedBy: ['tenant-isolation'] });
  });

  it('lets global_admin cross tenants', () => {
    const decision = engine.evaluate({
      principal: user(['global_admin']),
      action: 'users.write',
      resourceTenant: 'globex',
    });
    expect(decision).toMatchObject({ effect: 'allow', decidedBy: ['token-scope', 'global-admin-all'] });
  });

  it('judges a service principal by its scopes only, bypassing roles', () => {
    expect(
      engine.evaluate({ principal: service(['jobs.*']), action: 'jobs.write', resourceTenant: 'acme' }),
    ).toMatchObject({ effect: 'allow', decidedBy: ['token-scope'] });
    expect(engine.evaluate({ principal: service(['jobs.read']), action: 'jobs.write' })).toMatchObject({
      effect: 'deny',
      decidedBy: ['token-scope'],
    });
  });

  it('lets admin.* cover every action of a service token, in any tenant', () => {
    for (const action of ['apps.write', 'users.write', 'secrets.read', 'admin.keys.rotate']) {
      expect(
        engine.evaluate({ principal: service(['admin.*']), action, resourceTenant: 'globex' }).effect,
      ).toBe('allow');
    }
  });

  it('refuses a user whose token scope does not cover the action, whatever the role allows', () => {
    const decision = engine.evaluate({
      principal: user(['tenant_admin'], 'acme', ['users.read']),
      action: 'users.write',
      resourceTenant: 'acme',
    });
    expect(decision).toMatchObject({ effect: 'deny', decidedBy: ['token-scope'] });
    expect(decision.reason).toMatch(/scope does not cover users.write/);
  });

  it('refuses a user whose role does not allow the action, whatever the token scope covers', () => {
    expect(
      engine.evaluate({
        principal: user(['viewer'], 'acme', ['users.*']),
        action: 'users.write',
        resourceTenant: 'acme',
      }),
    ).toMatchObject({ effect: 'deny', decidedBy: [] });
  });

  it('allows a user only when the scope AND a role policy allow, naming both', () => {
    expect(
      engine.evaluate({
        principal: user(['viewer'], 'acme', ['users.read']),
        action: 'users.read',
        resourceTenant: 'acme',
      }),
    ).toMatchObject({ effect: 'allow', decidedBy: ['token-scope', 'viewer-own-tenant'] });
  });

  it('does not let admin.* in a user token open what the roles do not allow', () => {
    expect(
      engine.evaluate({
        principal: user(['user'], 'acme', ['admin.*']),
        action: 'secrets.write',
        resourceTenant: 'acme',
      }).effect,
    ).toBe('deny');
    expect(
      engine.evaluate({
        principal: user(['tenant_admin'], 'acme', ['admin.*']),
        action: 'secrets.write',
        resourceTenant: 'globex',
      }),
    ).toMatchObject({ effect: 'deny', decidedBy: ['token-scope'] });
  });

  it('evaluates candidate policies beside the stored ones (dry run of a new policy)', () => {
    const freeze: Policy = {
      id: 'freeze-secrets',
      description: 'secrets are frozen',
      effect: 'deny',
      roles: ['*'],
      actions: ['secrets.*'],
      tenants: 'any',
    };
    const request = { principal: user(['tenant_admin']), action: 'secrets.write', resourceTenant: 'acme' };
    expect(engine.evaluate(request).effect).toBe('allow');
    expect(engine.evaluate(request, [freeze])).toMatchObject({
      effect: 'deny',
      decidedBy: ['freeze-secrets'],
    });
  });

  it('names the scope check and every allowing policy', () => {
    const extra: Policy = {
      id: 'viewers-read-secrets',
      description: 'x',
      effect: 'allow',
      roles: ['viewer'],
      actions: ['secrets.read'],
      tenants: 'own',
    };
    const decision = new PolicyEngine([...DEFAULT_POLICIES, extra]).evaluate({
      principal: user(['viewer', 'user']),
      action: 'secrets.read',
      resourceTenant: 'acme',
    });
    expect(decision).toMatchObject({
      effect: 'allow',
      decidedBy: ['token-scope', 'user-own-tenant', 'viewers-read-secrets'],
    });
  });
});
