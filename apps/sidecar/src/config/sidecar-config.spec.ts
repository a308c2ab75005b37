import { ConfigError } from '@platform/config';
import { loadSidecarConfig } from './sidecar-config';

const env = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({
  INTERNAL_TOKEN: 'internal-token-for-the-config-spec-0123456789',
  ...extra,
});

describe(loadSidecarConfig.name, () => {
  it('defaults to loopback gRPC, loopback health and the specification timings', () => {
    expect(loadSidecarConfig(env())).toEqual({
      grpcAddress: '[::1]:50051',
      allowNonLoopback: false,
      healthHost: '127.0.0.1',
      healthPort: 9091,
      controlPlaneUrl: 'http://127.0.0.1:8080',
      internalToken: 'internal-token-for-the-config-spec-0123456789',
      issuer: 'http://localhost:3000',
      logFormat: 'text',
      revocationPollMs: 30_000,
      keyRefreshMs: 30_000,
      unknownKidRefreshIntervalMs: 5_000,
      verifiedTokenCacheSize: 10_000,
      failedAuthPerPeer: 100,
      failedAuthWindowSeconds: 900,
      quotaRedisPrefix: 'platform',
    });
  });

  it('reads where quotas are counted: QUOTA_REDIS_URL and QUOTA_REDIS_PREFIX', () => {
    expect(
      loadSidecarConfig(env({ QUOTA_REDIS_URL: 'redis://127.0.0.1:6379', QUOTA_REDIS_PREFIX: 'eu-1' })),
    ).toMatchObject({ quotaRedisUrl: 'redis://127.0.0.1:6379', quotaRedisPrefix: 'eu-1' });
    expect(() => loadSidecarConfig(env({ QUOTA_REDIS_URL: 'http://redis' }))).toThrow(ConfigError);
  });

  it('refuses a non-loopback gRPC address', () => {
    expect(() => loadSidecarConfig(env({ SIDECAR_GRPC_ADDRESS: '0.0.0.0:50051' }))).toThrow(
      /not a loopback address/,
    );
  });

  it('reads the sidecar variables, allowing a non-loopback address when told to', () => {
    const config = loadSidecarConfig(
      env({
        SIDECAR_GRPC_ADDRESS: '0.0.0.0:6000',
        SIDECAR_ALLOW_NON_LOOPBACK: 'true',
        SIDECAR_HEALTH_HOST: '0.0.0.0',
        SIDECAR_HEALTH_PORT: '9999',
      }),
    );

    expect(config).toMatchObject({
      grpcAddress: '0.0.0.0:6000',
      allowNonLoopback: true,
      healthHost: '0.0.0.0',
      healthPort: 9999,
    });
  });

  it('refuses a SIDECAR_ALLOW_NON_LOOPBACK that is neither true nor false', () => {
    expect(() => loadSidecarConfig(env({ SIDECAR_ALLOW_NON_LOOPBACK: 'yes' }))).toThrow(ConfigError);
  });

  it('reads SIDECAR_TOKEN_CACHE_SIZE, 0 included, and refuses anything but a whole number', () => {
    expect(loadSidecarConfig(env({ SIDECAR_TOKEN_CACHE_SIZE: '0' })).verifiedTokenCacheSize).toBe(0);
    expect(loadSidecarConfig(env({ SIDECAR_TOKEN_CACHE_SIZE: '500' })).verifiedTokenCacheSize).toBe(500);
    for (const bad of ['-1', '1e3', 'lots', '12345678']) {
      expect(() => loadSidecarConfig(env({ SIDECAR_TOKEN_CACHE_SIZE: bad }))).toThrow(ConfigError);
    }
  });
});
