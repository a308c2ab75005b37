import { loadConfig, type PlatformConfig } from '@platform/config';

/** What the sidecar reads, resolved once at boot by the platform's one loader. */
export interface SidecarConfig {
  /** `host:port` (IPv6 in brackets) or `unix:<path>`; `[::1]:50051` by default. */
  grpcAddress: string;
  /** Set by `SIDECAR_ALLOW_NON_LOOPBACK=true` only: lets `grpcAddress` be a non-loopback address. */
  allowNonLoopback: boolean;
  /** HTTP health endpoint (`GET /health`). `SIDECAR_HEALTH_HOST`, default `127.0.0.1`. */
  healthHost: string;
  healthPort: number;
  controlPlaneUrl: string;
  internalToken: string;
  /** Expected `iss` and `aud` of every access token. */
  issuer: string;
  logFormat: PlatformConfig['logFormat'];
  /** Full re-read of the active deny-list (fallback behind the stream). */
  revocationPollMs: number;
  /** Background refresh of the key set (the specification's 30 s). */
  keyRefreshMs: number;
  /** An unknown `kid` triggers at most one key refresh per this interval. */
  unknownKidRefreshIntervalMs: number;
  /**
   * Entries of the verified-token cache (`SIDECAR_TOKEN_CACHE_SIZE`, default 10000; 0 turns it
   * off). See `validation/verified-token-cache.ts`.
   */
  verifiedTokenCacheSize: number;
  /** `RATE_LIMIT_REDIS_URL`: the rate limit service's counters, shared by every sidecar; else in memory. */
  rateLimitRedisUrl?: string;
  /**
   * `QUOTA_REDIS_URL`: the Redis the quota service counts in, shared by every sidecar and control
   * plane; unset: each consumption is counted by the control plane (docs/plans.md, "Counting").
   */
  quotaRedisUrl?: string;
  /** `QUOTA_REDIS_PREFIX` (default `platform`): namespaces the quota keys of this deployment. */
  quotaRedisPrefix: string;
  /**
   * Failed `x-internal-token` attempts one peer address may make per `failedAuthWindowSeconds`
   * before it is refused (RESOURCE_EXHAUSTED) for the window (`RATE_LIMIT_FAILED_AUTH_PER_ADDRESS`,
   * as at the backend; 0 turns it off).
   */
  failedAuthPerPeer: number;
  failedAuthWindowSeconds: number;
}

export const SIDECAR_CONFIG = Symbol('SIDECAR_CONFIG');

/** The sidecar's view of the one configuration (libs/config), checked for the sidecar's role. */
export function loadSidecarConfig(env: NodeJS.ProcessEnv = process.env): SidecarConfig {
  const platform = loadConfig(env, 'sidecar');
  return {
    grpcAddress: platform.sidecarGrpcAddress,
    allowNonLoopback: platform.sidecar.allowNonLoopback,
    healthHost: platform.sidecar.healthHost,
    healthPort: platform.sidecarHealthPort,
    controlPlaneUrl: platform.controlPlaneUrl,
    internalToken: platform.internalToken,
    issuer: platform.issuer,
    logFormat: platform.logFormat,
    revocationPollMs: platform.revocationPollMs,
    keyRefreshMs: platform.sidecar.keyRefreshMs,
    unknownKidRefreshIntervalMs: platform.sidecar.unknownKidRefreshIntervalMs,
    verifiedTokenCacheSize: platform.sidecar.tokenCacheSize,
    ...(platform.rateLimits.redisUrl !== undefined && { rateLimitRedisUrl: platform.rateLimits.redisUrl }),
    ...(platform.quotas.redisUrl !== undefined && { quotaRedisUrl: platform.quotas.redisUrl }),
    quotaRedisPrefix: platform.quotas.redisPrefix,
    failedAuthPerPeer: platform.rateLimits.failedAuthPerAddress,
    failedAuthWindowSeconds: platform.rateLimits.failedAuthWindowSeconds,
  };
}
