import { ConfigError, loadConfig, type PlatformConfig } from '@platform/config';
import { DEFAULT_VERIFIED_TOKEN_CACHE_SIZE } from '../validation/verified-token-cache';
import { assertLoopbackBinding } from './loopback';

/**
 * What the sidecar reads, resolved once at boot. The shared fields come from `loadConfig()`;
 * the sidecar-only ones (and the timings fixed by the specification) are defaulted here.
 */
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
}

export const SIDECAR_CONFIG = Symbol('SIDECAR_CONFIG');

export const KEY_REFRESH_MS = 30_000;
export const UNKNOWN_KID_REFRESH_INTERVAL_MS = 5_000;
export const DEFAULT_HEALTH_HOST = '127.0.0.1';

export function loadSidecarConfig(env: NodeJS.ProcessEnv = process.env): SidecarConfig {
  const platform = loadConfig(env);
  const config: SidecarConfig = {
    grpcAddress: platform.sidecarGrpcAddress,
    allowNonLoopback: parseBoolean('SIDECAR_ALLOW_NON_LOOPBACK', env.SIDECAR_ALLOW_NON_LOOPBACK),
    healthHost: env.SIDECAR_HEALTH_HOST || DEFAULT_HEALTH_HOST,
    healthPort: platform.sidecarHealthPort,
    controlPlaneUrl: platform.controlPlaneUrl,
    internalToken: platform.internalToken,
    issuer: platform.issuer,
    logFormat: platform.logFormat,
    revocationPollMs: platform.revocationPollMs,
    keyRefreshMs: KEY_REFRESH_MS,
    unknownKidRefreshIntervalMs: UNKNOWN_KID_REFRESH_INTERVAL_MS,
    verifiedTokenCacheSize: parseCount(
      'SIDECAR_TOKEN_CACHE_SIZE',
      env.SIDECAR_TOKEN_CACHE_SIZE,
      DEFAULT_VERIFIED_TOKEN_CACHE_SIZE,
    ),
  };
  assertLoopbackBinding(config);
  return config;
}

function parseBoolean(name: string, value: string | undefined): boolean {
  if (value === undefined || value === '' || value === 'false') return false;
  if (value === 'true') return true;
  throw new ConfigError(`invalid configuration:\n  ${name}: must be true or false`);
}

function parseCount(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  if (!/^\d{1,7}$/.test(value)) {
    throw new ConfigError(`invalid configuration:\n  ${name}: must be a whole number from 0 to 9999999`);
  }
  return Number(value);
}
