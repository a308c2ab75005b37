import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { EnvironmentVariables } from './environment';

export type NodeEnv = 'development' | 'production' | 'test';

/** Typed configuration shared by the three processes. Defaults live here and only here. */
export interface PlatformConfig {
  nodeEnv: NodeEnv;
  backendPort: number;
  controlPlanePort: number;
  controlPlaneUrl: string;
  sidecarGrpcAddress: string;
  sidecarHealthPort: number;
  dataDir: string;
  /** `sqlite:<path>` or `postgres://...`. */
  databaseUrl: string;
  issuer: string;
  adminClientId: string;
  adminClientSecret: string | undefined;
  /** Shared secret between our own processes (header `x-internal-token`, gRPC metadata). */
  internalToken: string;
  /** The external OpenID Provider the backend signs users in with (relying party). */
  oidc: {
    issuer: string | undefined;
    clientId: string | undefined;
    clientSecret: string | undefined;
    /** Space-separated scopes asked for at login (default `openid email profile`). */
    scopes: string;
    /**
     * ID token / userinfo claims that carry the user's tenant and roles. loadConfig always sets
     * them (defaults in OIDC_CLAIM_DEFAULTS); optional so configs built by hand stay valid.
     */
    tenantClaim?: string;
    rolesClaim?: string;
  };
  logFormat: 'json' | 'text';
  /** How often a sidecar re-reads the whole deny-list even when its stream is healthy. */
  revocationPollMs: number;
}

export const PLATFORM_VERSION = '0.9.0';

/** The claims a user's tenant and roles are read from unless OIDC_TENANT_CLAIM / OIDC_ROLES_CLAIM say otherwise. */
export const OIDC_CLAIM_DEFAULTS = { tenantClaim: 'tenant', rolesClaim: 'roles' } as const;

const NUMERIC_KEYS = [
  'BACKEND_PORT',
  'CONTROL_PLANE_PORT',
  'SIDECAR_HEALTH_PORT',
  'REVOCATION_POLL_MS',
] as const;

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): PlatformConfig {
  const raw: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined && value !== '') raw[key] = value;
  for (const key of NUMERIC_KEYS) if (typeof raw[key] === 'string') raw[key] = Number(raw[key]);

  const vars = plainToInstance(EnvironmentVariables, raw, { excludeExtraneousValues: false });
  const errors = validateSync(vars, { skipMissingProperties: false, forbidUnknownValues: false });
  if (errors.length > 0) {
    const detail = errors.map((e) => `${e.property}: ${Object.values(e.constraints ?? {}).join(', ')}`);
    throw new ConfigError(`invalid configuration:\n  ${detail.join('\n  ')}`);
  }

  const nodeEnv = (vars.NODE_ENV ?? 'development') as NodeEnv;
  const production = nodeEnv === 'production';
  const dataDir = resolve(vars.DATA_DIR ?? './data');
  const controlPlanePort = vars.CONTROL_PLANE_PORT ?? 8080;

  if (production && !vars.INTERNAL_TOKEN) throw new ConfigError('INTERNAL_TOKEN is required in production');
  if (production && !vars.ISSUER) throw new ConfigError('ISSUER is required in production');

  return {
    nodeEnv,
    backendPort: vars.BACKEND_PORT ?? 3000,
    controlPlanePort,
    controlPlaneUrl: (vars.CONTROL_PLANE_URL ?? `http://127.0.0.1:${controlPlanePort}`).replace(/\/$/, ''),
    sidecarGrpcAddress: vars.SIDECAR_GRPC_ADDRESS ?? '[::1]:50051',
    sidecarHealthPort: vars.SIDECAR_HEALTH_PORT ?? 9091,
    dataDir,
    databaseUrl: vars.DATABASE_URL ?? `sqlite:${join(dataDir, 'platform.sqlite')}`,
    issuer: (vars.ISSUER ?? 'http://localhost:3000').replace(/\/$/, ''),
    adminClientId: vars.ADMIN_CLIENT_ID ?? 'admin',
    adminClientSecret: vars.ADMIN_CLIENT_SECRET,
    internalToken: vars.INTERNAL_TOKEN ?? sharedDevelopmentToken(dataDir),
    oidc: {
      issuer: vars.OIDC_ISSUER,
      clientId: vars.OIDC_CLIENT_ID,
      clientSecret: vars.OIDC_CLIENT_SECRET,
      scopes: vars.OIDC_SCOPES ?? 'openid email profile',
      tenantClaim: vars.OIDC_TENANT_CLAIM ?? OIDC_CLAIM_DEFAULTS.tenantClaim,
      rolesClaim: vars.OIDC_ROLES_CLAIM ?? OIDC_CLAIM_DEFAULTS.rolesClaim,
    },
    logFormat: (vars.LOG_FORMAT as 'json' | 'text' | undefined) ?? (production ? 'json' : 'text'),
    revocationPollMs: vars.REVOCATION_POLL_MS ?? 30_000,
  };
}

/**
 * Outside production the three local processes agree on an internal token through a file
 * in DATA_DIR (mode 0600), created by whichever process starts first.
 */
function sharedDevelopmentToken(dataDir: string): string {
  const file = join(dataDir, 'internal-token');
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  try {
    writeFileSync(file, randomBytes(32).toString('base64url'), { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return readFileSync(file, 'utf8').trim();
}
