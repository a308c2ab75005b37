import { holdsAdminScope, isAdminToken } from './admin';

describe(isAdminToken.name, () => {
  it('takes a token carrying admin.* for an admin token', () => {
    expect(isAdminToken({ scope: 'jobs.read admin.*' })).toBe(true);
  });

  it('takes a user token with the global_admin role for an admin token', () => {
    expect(isAdminToken({ scope: 'jobs.read', roles: ['user', 'global_admin'] })).toBe(true);
  });

  it('does not take a narrower admin scope for admin.*', () => {
    expect(isAdminToken({ scope: 'admin.read', roles: [] })).toBe(false);
  });

  it('does not take a look-alike scope for admin.*', () => {
    expect(isAdminToken({ scope: 'admins.*', roles: [] })).toBe(false);
  });

  it('does not take a tenant_admin for a platform administrator', () => {
    expect(isAdminToken({ scope: '', roles: ['tenant_admin'] })).toBe(false);
  });
});

describe(holdsAdminScope.name, () => {
  it('is true only for a scope list covering admin.*', () => {
    expect(holdsAdminScope(['admin.*'])).toBe(true);
    expect(holdsAdminScope(['admin.read', 'jobs.*'])).toBe(false);
  });
});
