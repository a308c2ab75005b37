import type { PolicyPrincipal } from './policy';
import { checkTenantIsolation } from './tenant-isolation';

const user = (roles: string[], tenant = 'acme'): PolicyPrincipal => ({
  kind: 'user',
  id: 'u1',
  clientId: 'portal',
  tenant,
  roles,
  scopes: [],
});

describe(checkTenantIsolation.name, () => {
  it('lets a user act in its own tenant', () => {
    expect(checkTenantIsolation(user(['viewer']), 'acme')).toMatchObject({ allowed: true });
  });

  it('keeps a tenant_admin out of another tenant, saying why', () => {
    expect(checkTenantIsolation(user(['tenant_admin']), 'globex')).toEqual({
      allowed: false,
      reason: expect.stringMatching(/only global_admin crosses tenants/),
    });
  });

  it('lets global_admin cross tenants', () => {
    expect(checkTenantIsolation(user(['global_admin']), 'globex')).toMatchObject({ allowed: true });
  });

  it('treats a service token as platform-wide', () => {
    expect(
      checkTenantIsolation({ kind: 'service', id: 'w', clientId: 'w', scopes: ['jobs.read'] }, 'globex'),
    ).toMatchObject({ allowed: true });
  });
});
