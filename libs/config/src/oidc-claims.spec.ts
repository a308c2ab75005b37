import { ConfigError, loadConfig } from './index';

/** INTERNAL_TOKEN set, so loading writes no development token file. */
const load = (env: Record<string, string> = {}) => loadConfig({ INTERNAL_TOKEN: 'x'.repeat(32), ...env });

describe('OIDC claim names', () => {
  it('reads tenant and roles from the claims tenant and roles by default', () => {
    expect(load().oidc).toMatchObject({ tenantClaim: 'tenant', rolesClaim: 'roles' });
  });

  it('reads them from OIDC_TENANT_CLAIM and OIDC_ROLES_CLAIM', () => {
    expect(
      load({ OIDC_TENANT_CLAIM: 'org_id', OIDC_ROLES_CLAIM: 'https://platform.example/roles' }).oidc,
    ).toMatchObject({ tenantClaim: 'org_id', rolesClaim: 'https://platform.example/roles' });
  });

  it('refuses an unreasonably long claim name', () => {
    expect(() => load({ OIDC_ROLES_CLAIM: 'r'.repeat(257) })).toThrow(ConfigError);
  });
});
