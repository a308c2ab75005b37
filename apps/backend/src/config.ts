import { ConfigError, type PlatformConfig } from '@platform/config';

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
