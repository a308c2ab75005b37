import { isIPv4, isIPv6 } from 'node:net';
import type { PlatformConfig } from './config';
import type { EnvironmentVariables } from './environment';

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** Which process a configuration is checked for: each refuses only what it would misuse. */
export type ProcessRole = 'backend' | 'control-plane' | 'sidecar';

/**
 * Every refusal of a configuration, in one place: what production requires of every process,
 * the control plane's bootstrap secret, what the backend needs as the identity provider's
 * relying party, and the sidecar's loopback binding. Called by loadConfig once the values are parsed.
 */
export function checkConfig(vars: EnvironmentVariables, config: PlatformConfig, role?: ProcessRole): void {
  const production = config.nodeEnv === 'production';
  if (production && !vars.INTERNAL_TOKEN) throw new ConfigError('INTERNAL_TOKEN is required in production');
  if (production && !vars.ISSUER) throw new ConfigError('ISSUER is required in production');
  if (role === 'backend') assertBackendConfig(config);
  if (role === 'backend' && production && !vars.SESSION_SECRET) {
    throw new ConfigError('SESSION_SECRET is required in production (the key of the browser cookies)');
  }
  // Sessions from unverified claims would let any holder of INTERNAL_TOKEN pick a user's roles.
  if (production && config.testSessionsFromClaims) {
    throw new ConfigError('TEST_SESSIONS_FROM_CLAIMS is a test seam and is refused in production');
  }
  if (production && config.testAnswerCheckFile !== undefined) {
    throw new ConfigError('TEST_ANSWER_CHECK_FILE is a test seam and is refused in production');
  }
  if (vars.SESSION_SECRET !== undefined && vars.SESSION_SECRET === vars.INTERNAL_TOKEN) {
    throw new ConfigError('SESSION_SECRET must differ from INTERNAL_TOKEN');
  }
  // The bootstrap admin app's secret would otherwise be generated into a file on the disk.
  if (role === 'control-plane' && production && !config.adminClientSecret) {
    throw new ConfigError('ADMIN_CLIENT_SECRET is required in production');
  }
  if (role === 'control-plane' && production && !vars.SECRETS_KEK && !vars.SECRETS_KEK_FILE) {
    throw new ConfigError('SECRETS_KEK or SECRETS_KEK_FILE is required in production');
  }
  if (role === 'sidecar') {
    assertLoopbackBinding({
      grpcAddress: config.sidecarGrpcAddress,
      allowNonLoopback: config.sidecar.allowNonLoopback,
    });
  }
}

/**
 * The backend is the relying party of the identity provider: production refuses to start
 * without one, and an identity provider without client credentials is refused everywhere.
 */
export function assertBackendConfig(config: Pick<PlatformConfig, 'nodeEnv' | 'oidc'>): void {
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

/** Refuses a non-loopback gRPC address unless explicitly allowed (SIDECAR_ALLOW_NON_LOOPBACK=true). */
export function assertLoopbackBinding(config: { grpcAddress: string; allowNonLoopback: boolean }): void {
  if (config.allowNonLoopback || isLoopbackAddress(config.grpcAddress)) return;
  throw new ConfigError(
    `refusing to bind the sidecar to ${config.grpcAddress}: not a loopback address (set SIDECAR_ALLOW_NON_LOOPBACK=true to allow)`,
  );
}

/**
 * Whether a gRPC bind address (`host:port`, `[v6]:port` or `unix:<path>`) stays on this machine:
 * `localhost`, 127.0.0.0/8, `::1` (also IPv4-mapped), or a Unix socket.
 */
export function isLoopbackAddress(address: string): boolean {
  if (address.startsWith('unix:')) return true;
  const host = hostOf(address);
  if (host === undefined) return false;
  if (host.toLowerCase() === 'localhost') return true;
  if (isIPv4(host)) return host.startsWith('127.');
  if (isIPv6(host)) {
    const lower = host.toLowerCase();
    if (lower === '::1' || lower === '0:0:0:0:0:0:0:1') return true;
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
    return mapped !== null && mapped[1].startsWith('127.');
  }
  return false;
}

function hostOf(address: string): string | undefined {
  const target = address.replace(/^dns:(\/\/[^/]*\/)?/, '');
  if (target.startsWith('[')) {
    const end = target.indexOf(']');
    return end > 0 ? target.slice(1, end) : undefined;
  }
  const colon = target.lastIndexOf(':');
  const host = colon >= 0 ? target.slice(0, colon) : target;
  // A bare IPv6 address without brackets has more than one colon and cannot carry a port.
  return host.includes(':') ? undefined : host;
}
