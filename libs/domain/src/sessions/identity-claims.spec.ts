import { userFromIdentity, type ExternalIdentity } from './identity-claims';

const NAMES = { tenantClaim: 'tenant', rolesClaim: 'roles' };
const identity = (claims: Record<string, unknown>): ExternalIdentity => ({
  issuer: 'https://idp.example.com',
  subject: 'ada',
  claims,
});

describe(userFromIdentity.name, () => {
  it('takes email, name, tenant and roles from the claims', () => {
    expect(
      userFromIdentity(
        identity({
          email: 'ada@example.com',
          name: 'Ada Lovelace',
          tenant: 'acme',
          roles: ['tenant_admin', 'viewer'],
        }),
        NAMES,
      ),
    ).toEqual({
      issuer: 'https://idp.example.com',
      subject: 'ada',
      email: 'ada@example.com',
      name: 'Ada Lovelace',
      tenant: 'acme',
      roles: ['tenant_admin', 'viewer'],
      keepStoredRoles: false,
    });
  });

  it('lets a provider that sends a roles claim decide the roles, even when none is of the bundle', () => {
    expect(userFromIdentity(identity({ roles: ['superuser'] }), NAMES)).toMatchObject({
      roles: ['user'],
      keepStoredRoles: false,
    });
  });

  it('leaves the roles of a known user to the admin API when the provider sends no roles claim', () => {
    expect(userFromIdentity(identity({ tenant: 'acme' }), NAMES)).toMatchObject({
      roles: ['user'],
      keepStoredRoles: true,
    });
  });

  it('falls back to tenant default and role user', () => {
    expect(userFromIdentity(identity({}), NAMES)).toMatchObject({
      email: null,
      name: null,
      tenant: 'default',
      roles: ['user'],
    });
  });

  it('reads the claims it was configured to read', () => {
    const names = { tenantClaim: 'org', rolesClaim: 'https://platform.example/roles' };
    expect(
      userFromIdentity(
        identity({ org: 'globex', tenant: 'acme', 'https://platform.example/roles': ['viewer'] }),
        names,
      ),
    ).toMatchObject({ tenant: 'globex', roles: ['viewer'] });
  });

  it('keeps only roles of the bundle, once each', () => {
    expect(
      userFromIdentity(
        identity({ roles: ['viewer', 'superuser', 'Global_Admin', 'viewer', 42, 'user'] }),
        NAMES,
      ),
    ).toMatchObject({ roles: ['viewer', 'user'] });
  });

  it('gives role user when no claimed role is in the bundle', () => {
    expect(userFromIdentity(identity({ roles: ['superuser'] }), NAMES)).toMatchObject({ roles: ['user'] });
  });

  it('accepts the roles as a space-separated string', () => {
    expect(userFromIdentity(identity({ roles: 'global_admin viewer' }), NAMES)).toMatchObject({
      roles: ['global_admin', 'viewer'],
    });
  });

  it('ignores claims of the wrong type or empty', () => {
    expect(
      userFromIdentity(
        identity({ email: 42, name: '  ', tenant: { id: 'acme' }, roles: { admin: true } }),
        NAMES,
      ),
    ).toMatchObject({ email: null, name: null, tenant: 'default', roles: ['user'] });
  });
});
