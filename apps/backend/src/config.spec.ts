import { ConfigError } from '@platform/config';
import { assertBackendConfig, loadBackendConfig } from './config';
import { testConfig } from './testing/fakes';

const oidc = { issuer: 'https://idp.example', clientId: 'backend', clientSecret: 's', scopes: 'openid' };

describe('assertBackendConfig', () => {
  it('refuses to start in production without an identity provider', () => {
    expect(() => assertBackendConfig(testConfig({ nodeEnv: 'production' }))).toThrow(ConfigError);
    expect(() => assertBackendConfig(testConfig({ nodeEnv: 'production' }))).toThrow(/OIDC_ISSUER/);
  });

  it('starts in production with one', () => {
    expect(() => assertBackendConfig(testConfig({ nodeEnv: 'production', oidc }))).not.toThrow();
  });

  it('refuses a plain-HTTP identity provider in production', () => {
    expect(() =>
      assertBackendConfig(
        testConfig({ nodeEnv: 'production', oidc: { ...oidc, issuer: 'http://idp.internal' } }),
      ),
    ).toThrow(/https/);
  });

  it('starts without one in development (sign-in then answers 503)', () => {
    expect(() => assertBackendConfig(testConfig({ nodeEnv: 'development' }))).not.toThrow();
  });

  it('refuses an identity provider without client credentials', () => {
    expect(() => assertBackendConfig(testConfig({ oidc: { ...oidc, clientSecret: undefined } }))).toThrow(
      /OIDC_CLIENT_SECRET/,
    );
  });
});

describe('loadBackendConfig', () => {
  it('defaults the validation cache to 10000 entries', () => {
    expect(loadBackendConfig({})).toEqual({ tokenCacheSize: 10_000 });
  });

  it('reads BACKEND_TOKEN_CACHE_SIZE, 0 turning the cache off', () => {
    expect(loadBackendConfig({ BACKEND_TOKEN_CACHE_SIZE: '0' }).tokenCacheSize).toBe(0);
    expect(loadBackendConfig({ BACKEND_TOKEN_CACHE_SIZE: '250' }).tokenCacheSize).toBe(250);
  });

  it.each(['-1', '1.5', 'lots', '2000000'])('refuses BACKEND_TOKEN_CACHE_SIZE=%s', (value) => {
    expect(() => loadBackendConfig({ BACKEND_TOKEN_CACHE_SIZE: value })).toThrow(/BACKEND_TOKEN_CACHE_SIZE/);
  });
});
