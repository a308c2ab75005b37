import { DEFAULT_POLICIES } from './default-policies';
import type { Policy, Principal } from './policy';
import { PolicyEngine } from './policy-engine';

const user = (roles: string[], tenant = 'acme'): Principal => ({
  kind: 'user',
  id: 'u1',
  clientId: 'portal',
  tenant,
  roles,
});
const service = (scopes: string[]): Principal => ({
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
    expect(decision).toMatchObject({ effect: 'allow', decidedBy: ['global-admin-all'] });
  });

  it('judges a service principal by its scopes only, bypassing roles', () => {
    expect(
      engine.evaluate({ principal: service(['jobs.*']), action: 'jobs.write', resourceTenant: 'acme' })
        .effect,
    ).toBe('allow');
    expect(engine.evaluate({ principal: service(['jobs.read']), action: 'jobs.write' }).effect).toBe('deny');
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

  it('names every allowing policy', () => {
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
      decidedBy: ['user-own-tenant', 'viewers-read-secrets'],
    });
  });
});
