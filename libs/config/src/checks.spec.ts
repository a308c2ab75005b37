import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertBackendConfig, ConfigError } from './checks';
import { loadConfig, type PlatformConfig } from './config';

const TOKEN = 'internal-token-for-the-checks-spec-0123456789';
const config = (
  overrides: Partial<Pick<PlatformConfig, 'nodeEnv' | 'oidc'>>,
): Pick<PlatformConfig, 'nodeEnv' | 'oidc'> => ({
  nodeEnv: 'development',
  oidc: { issuer: undefined, clientId: undefined, clientSecret: undefined, scopes: 'openid email profile' },
  ...overrides,
});

const oidc = { issuer: 'https://idp.example', clientId: 'backend', clientSecret: 's', scopes: 'openid' };

describe('assertBackendConfig', () => {
  it('refuses to start in production without an identity provider', () => {
    expect(() => assertBackendConfig(config({ nodeEnv: 'production' }))).toThrow(ConfigError);
    expect(() => assertBackendConfig(config({ nodeEnv: 'production' }))).toThrow(/OIDC_ISSUER/);
  });

  it('starts in production with one', () => {
    expect(() => assertBackendConfig(config({ nodeEnv: 'production', oidc }))).not.toThrow();
  });

  it('refuses a plain-HTTP identity provider in production', () => {
    expect(() =>
      assertBackendConfig(
        config({ nodeEnv: 'production', oidc: { ...oidc, issuer: 'http://idp.internal' } }),
      ),
    ).toThrow(/https/);
  });

  it('starts without one in development (sign-in then answers 503)', () => {
    expect(() => assertBackendConfig(config({ nodeEnv: 'development' }))).not.toThrow();
  });

  it('refuses an identity provider without client credentials', () => {
    expect(() => assertBackendConfig(config({ oidc: { ...oidc, clientSecret: undefined } }))).toThrow(
      /OIDC_CLIENT_SECRET/,
    );
  });
});

describe('BACKEND_TOKEN_CACHE_SIZE', () => {
  const load = (extra: Record<string, string> = {}) => loadConfig({ INTERNAL_TOKEN: TOKEN, ...extra });

  it('defaults the validation cache to 100000 entries', () => {
    expect(load().backendTokenCacheSize).toBe(100_000);
  });

  it('reads BACKEND_TOKEN_CACHE_SIZE, 0 turning the cache off', () => {
    expect(load({ BACKEND_TOKEN_CACHE_SIZE: '0' }).backendTokenCacheSize).toBe(0);
    expect(load({ BACKEND_TOKEN_CACHE_SIZE: '250' }).backendTokenCacheSize).toBe(250);
  });

  it.each(['-1', '1.5', 'lots', '2000000'])('refuses BACKEND_TOKEN_CACHE_SIZE=%s', (value) => {
    expect(() => load({ BACKEND_TOKEN_CACHE_SIZE: value })).toThrow(/BACKEND_TOKEN_CACHE_SIZE/);
  });
});

describe('production', () => {
  it('requires INTERNAL_TOKEN and ISSUER of every process, and writes no development token', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', DATA_DIR: '/nonexistent' })).toThrow(/INTERNAL_TOKEN/);
    expect(() => loadConfig({ NODE_ENV: 'production', INTERNAL_TOKEN: TOKEN })).toThrow(/ISSUER/);
  });

  it("runs the backend's checks only for the backend", () => {
    const env = { NODE_ENV: 'production', INTERNAL_TOKEN: TOKEN, ISSUER: 'https://auth.example' };
    expect(() => loadConfig(env)).not.toThrow();
    expect(() => loadConfig(env, 'backend')).toThrow(/OIDC_ISSUER/);
    expect(() => loadConfig(env, 'control-plane')).toThrow(/ADMIN_CLIENT_SECRET/);
    const controlPlane = { ...env, ADMIN_CLIENT_SECRET: 'a-secret-of-16-chars-or-more' };
    expect(() => loadConfig(controlPlane, 'control-plane')).toThrow(/SECRETS_KEK/);
    expect(() =>
      loadConfig({ ...controlPlane, SECRETS_KEK: randomBytes(32).toString('base64') }, 'control-plane'),
    ).not.toThrow();
  });
});

describe('SESSION_SECRET', () => {
  const backend = {
    NODE_ENV: 'production',
    INTERNAL_TOKEN: TOKEN,
    ISSUER: 'https://auth.example',
    OIDC_ISSUER: 'https://idp.example',
    OIDC_CLIENT_ID: 'backend',
    OIDC_CLIENT_SECRET: 's',
  };

  it("is required of the backend in production, and is never INTERNAL_TOKEN's twin", () => {
    expect(() => loadConfig(backend, 'backend')).toThrow(/SESSION_SECRET is required/);
    expect(() => loadConfig({ ...backend, SESSION_SECRET: TOKEN }, 'backend')).toThrow(/differ/);
    const secret = 'a-session-secret-of-32-characters-or-more';
    expect(loadConfig({ ...backend, SESSION_SECRET: secret }, 'backend').sessionSecret()).toBe(secret);
  });

  it('is generated once into DATA_DIR (0600) outside production, apart from the internal token', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'config-session-'));
    try {
      const first = loadConfig({ DATA_DIR: dataDir });
      const secret = first.sessionSecret();
      expect(secret).toHaveLength(43);
      expect(secret).not.toBe(first.internalToken);
      expect(loadConfig({ DATA_DIR: dataDir }).sessionSecret()).toBe(secret);
      expect(statSync(join(dataDir, 'session-secret')).mode & 0o777).toBe(0o600);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('TEST_SESSIONS_FROM_CLAIMS', () => {
  it('is off unless set, and refused in production by every process', () => {
    expect(loadConfig({ INTERNAL_TOKEN: TOKEN }).testSessionsFromClaims).toBe(false);
    expect(
      loadConfig({ INTERNAL_TOKEN: TOKEN, TEST_SESSIONS_FROM_CLAIMS: 'true' }).testSessionsFromClaims,
    ).toBe(true);
    const production = { NODE_ENV: 'production', INTERNAL_TOKEN: TOKEN, ISSUER: 'https://auth.example' };
    expect(() => loadConfig({ ...production, TEST_SESSIONS_FROM_CLAIMS: 'true' })).toThrow(
      /TEST_SESSIONS_FROM_CLAIMS is a test seam and is refused in production/,
    );
  });
});

describe('TEST_ANSWER_CHECK_FILE', () => {
  it('is off unless set, and refused in production', () => {
    expect(loadConfig({ INTERNAL_TOKEN: TOKEN }).testAnswerCheckFile).toBeUndefined();
    expect(
      loadConfig({ INTERNAL_TOKEN: TOKEN, TEST_ANSWER_CHECK_FILE: '/tmp/answers' }).testAnswerCheckFile,
    ).toBe('/tmp/answers');
    const production = { NODE_ENV: 'production', INTERNAL_TOKEN: TOKEN, ISSUER: 'https://auth.example' };
    expect(() => loadConfig({ ...production, TEST_ANSWER_CHECK_FILE: '/tmp/answers' })).toThrow(
      /TEST_ANSWER_CHECK_FILE is a test seam and is refused in production/,
    );
  });
});
