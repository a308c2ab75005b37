import type { SidecarConfig } from '../config/sidecar-config';

export const TEST_ISSUER = 'http://localhost:3000';
export const TEST_INTERNAL_TOKEN = 'test-internal-token-0123456789abcdef0123456789';

/** A complete config for specs: ephemeral loopback ports, nothing read from the environment. */
export function testConfig(overrides: Partial<SidecarConfig> = {}): SidecarConfig {
  return {
    grpcAddress: '127.0.0.1:0',
    allowNonLoopback: false,
    healthHost: '127.0.0.1',
    healthPort: 0,
    controlPlaneUrl: 'http://127.0.0.1:9',
    internalToken: TEST_INTERNAL_TOKEN,
    issuer: TEST_ISSUER,
    logFormat: 'text',
    revocationPollMs: 30_000,
    keyRefreshMs: 30_000,
    unknownKidRefreshIntervalMs: 5_000,
    verifiedTokenCacheSize: 1_000,
    failedAuthPerPeer: 100,
    failedAuthWindowSeconds: 900,
    quotaRedisPrefix: 'platform',
    ...overrides,
  };
}
