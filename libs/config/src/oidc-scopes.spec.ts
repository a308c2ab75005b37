import { ConfigError, loadConfig } from './index';

/** INTERNAL_TOKEN set, so loading writes no development token file. */
const load = (env: Record<string, string> = {}) => loadConfig({ INTERNAL_TOKEN: 'x'.repeat(32), ...env });

describe('OIDC_SCOPES', () => {
  it('asks the identity provider for openid email profile by default', () => {
    expect(load().oidc.scopes).toBe('openid email profile');
  });

  it('takes the scopes an identity provider needs', () => {
    expect(load({ OIDC_SCOPES: 'openid email profile platform' }).oidc.scopes).toBe(
      'openid email profile platform',
    );
  });

  it.each(['email profile', 'openidx email', 'openid  email', 'openid "x"'])('refuses %p', (scopes) => {
    expect(() => load({ OIDC_SCOPES: scopes })).toThrow(ConfigError);
  });
});
