import { ConfigError, type PlatformConfig } from '@platform/config';
import { DEFAULT_TOKEN_CACHE_SIZE } from './auth/validated-token-cache';

/** Injection token of the validated PlatformConfig read once in main.ts. */
export const PLATFORM_CONFIG = Symbol('PLATFORM_CONFIG');

/**
 * What only the backend needs on top of the shared configuration: it is the relying party of
 * the identity provider, so production refuses to start without one, and an identity provider
 * without client credentials is refused everywhere.
 */
export function assertBackendConfig(config: PlatformConfig): void {
  const { issuer, clientId, clientSecret } = config.oidc;
  if (config.nodeEnv === 'production' && issuer === undefined) {
    throw new ConfigError('OIDC_ISSUER is required in production (the identity provider users sign in with)');
  }
  if (config.nodeEnv === 'production' && issuer !== undefined && !issuer.startsWith('https:')) {
    throw new ConfigError('OIDC_ISSUER must be an https:// URL in production');
  }
  if (issuer !== undefined && (clientId === undefined || clientSecret === undefined)) {
    throw new ConfigError('OIDC_CLIENT_ID and OIDC_CLIENT_SECRET are required when OIDC_ISSUER is set');
  }
}

/** What only the backend reads from the environment, resolved once at boot. */
export interface BackendConfig {
  /**
   * Entries of the validation cache (`BACKEND_TOKEN_CACHE_SIZE`, default 10000; 0 turns it off).
   * See `auth/validated-token-cache.ts`.
   */
  tokenCacheSize: number;
}

const MAX_TOKEN_CACHE_SIZE = 1_000_000;

export function loadBackendConfig(env: NodeJS.ProcessEnv = process.env): BackendConfig {
  return { tokenCacheSize: parseTokenCacheSize(env.BACKEND_TOKEN_CACHE_SIZE) };
}

function parseTokenCacheSize(value: string | undefined): number {
  if (value === undefined || value === '') return DEFAULT_TOKEN_CACHE_SIZE;
  const size = /^\d{1,7}$/.test(value) ? Number(value) : Number.NaN;
  if (!(size <= MAX_TOKEN_CACHE_SIZE)) {
    throw new ConfigError(
      `invalid configuration:\n  BACKEND_TOKEN_CACHE_SIZE: must be a whole number from 0 to ${MAX_TOKEN_CACHE_SIZE}`,
    );
  }
  return size;
}
