import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join, resolve } from 'node:path';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { checkConfig, ConfigError, type ProcessRole } from './checks';
import { DEFAULTS } from './defaults';
import { EnvironmentVariables } from './environment';

export type NodeEnv = 'development' | 'production' | 'test';

/** Typed configuration of the three processes, read by one loader; defaults in defaults.ts. */
export interface PlatformConfig {
  nodeEnv: NodeEnv;
  backendPort: number;
  /** The backend's admin port for `GET /metrics` (`BACKEND_METRICS_PORT`, on 127.0.0.1); 0: none. */
  backendMetricsPort: number;
  /** Where the metrics port listens (`BACKEND_METRICS_HOST`): 127.0.0.1, or 0.0.0.0 in a pod. */
  backendMetricsHost: string;
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
  /**
   * The backend's browser key (`SESSION_SECRET`): the CSRF tokens and the sealed login cookie.
   * Outside production, when unset, a random one kept in DATA_DIR; read by the backend only.
   */
  sessionSecret: () => string;
  /**
   * `TEST_SESSIONS_FROM_CLAIMS=true`, for test suites only (production refuses it): the control
   * plane opens a session from claims it is handed instead of the provider's ID token.
   */
  testSessionsFromClaims?: boolean;
  /**
   * `DPOP_NONCE_REQUIRED=true`: a DPoP proof at the token endpoint must carry a nonce the
   * control planes hand out (`DPoP-Nonce`, RFC 9449 section 8; docs/tokens.md "DPoP").
   */
  dpopNonceRequired?: boolean;
  /**
   * `TEST_ANSWER_CHECK_FILE`, for test suites only (production refuses it): the backend checks
   * every JSON success body against its documented schema and appends each misfit to this file.
   */
  testAnswerCheckFile?: string;
  /** The external OpenID Provider the backend signs users in with (relying party). */
  oidc: {
    issuer: string | undefined;
    clientId: string | undefined;
    clientSecret: string | undefined;
    /** The control plane's way to the provider's keys when the issuer's host is not its own (OIDC_JWKS_URL). */
    jwksUrl?: string;
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
  /** Entries of the backend's validation cache (`BACKEND_TOKEN_CACHE_SIZE`; 0 turns it off). */
  backendTokenCacheSize: number;
  /** What only the sidecar reads. */
  sidecar: {
    /** `SIDECAR_ALLOW_NON_LOOPBACK=true` only: lets the gRPC address be a non-loopback one. */
    allowNonLoopback: boolean;
    /** Address of its HTTP health endpoint (`SIDECAR_HEALTH_HOST`). */
    healthHost: string;
    /** Entries of its verified-token cache (`SIDECAR_TOKEN_CACHE_SIZE`; 0 turns it off). */
    tokenCacheSize: number;
    keyRefreshMs: number;
    unknownKidRefreshIntervalMs: number;
  };
  /** At SIGTERM, how long readiness answers 503 while requests are still served (SHUTDOWN_DRAIN_MS). */
  shutdownDrainMs: number;
  /** Days after which the control plane rotates the signing key by itself; 0: only by hand. */
  signingKeyRotationDays: number;
  /** Days a refresh-token family lives at most from its first token (docs/tokens.md). */
  refreshTokenAbsoluteLifetimeDays: number;
  /** The longest an impersonation token lives (docs/tokens.md, "Impersonation"). */
  impersonationMaxLifetimeSeconds: number;
  /** argon2 runs in flight at once in the control plane; the others wait (docs/security.md). */
  argon2Concurrency: number;
  /** The nice value of the control plane's argon2 processes (ARGON2_NICE). */
  argon2Nice: number;
  /** What the control plane's retention sweep keeps (libs/domain `RetentionPolicy`, docs/operations.md). */
  retention: {
    /** RETENTION_GRACE_MINUTES: how long expired codes, sessions and refresh-token families stay. */
    graceSeconds: number;
    /** TOKEN_EVENT_RETENTION_DAYS: how long token events are listed; 0 keeps them all. */
    tokenEventDays: number;
  };
  /**
   * The proxies the backend believes about the client's address (`TRUST_PROXY`, Fastify's
   * `trustProxy`): addresses and CIDRs. Empty (the default): X-Forwarded-For is ignored and
   * `request.ip` is the connection's peer. Every per-address limit keys on `request.ip`.
   */
  trustProxy: string[];
  /** Where quota counts live (docs/plans.md, "Counting"). */
  quotas: {
    /** Counts in this Redis (sidecars and control planes alike); the control plane's database when unset. */
    redisUrl: string | undefined;
    /** Namespaces the keys: one per deployment sharing a Redis. */
    redisPrefix: string;
  };
  /** The backend's own limits on its OAuth endpoints (docs/rate-limits.md); 0 turns one off. */
  rateLimits: {
    /** Counters shared by every backend through this Redis; in each process's memory when unset. */
    redisUrl: string | undefined;
    clientPerMinute: number;
    addressPerMinute: number;
    failedAuthPerClient: number;
    failedAuthPerAddress: number;
    failedAuthWindowSeconds: number;
  };
  /** The key-encryption keys of tenants' secrets (docs/secrets.md); read by the control plane only. */
  secrets: {
    /** SECRETS_KEK, or the content of SECRETS_KEK_FILE; outside production a file in DATA_DIR when neither is set. */
    kek: () => Buffer;
    /** SECRETS_KEK_PREVIOUS: still unwrap what they wrapped. */
    previousKeks: Buffer[];
  };
  /** What only the control plane's webhook sender reads (docs/webhooks.md). */
  webhooks: {
    /** Private, loopback and plain-http receivers allowed: outside production unless set. */
    allowPrivateUrls: boolean;
    timeoutMs: number;
    concurrency: number;
  };
  /**
   * What the control plane's live streams may hold (docs/operations.md, "Live streams"): only
   * what is set here; the defaults are libs/http's `DEFAULT_LIVE_STREAM_LIMITS`.
   */
  liveStreams: { perCaller?: number; bufferedBytes?: number; stallMs?: number };
}

export const PLATFORM_VERSION = '0.9.0';

/** The claims a user's tenant and roles are read from unless OIDC_TENANT_CLAIM / OIDC_ROLES_CLAIM say otherwise. */
export const OIDC_CLAIM_DEFAULTS = {
  tenantClaim: DEFAULTS.oidcTenantClaim,
  rolesClaim: DEFAULTS.oidcRolesClaim,
} as const;

const NUMERIC_KEYS = [
  'BACKEND_PORT',
  'BACKEND_METRICS_PORT',
  'CONTROL_PLANE_PORT',
  'SIDECAR_HEALTH_PORT',
  'REVOCATION_POLL_MS',
] as const;

/**
 * The one loader of the three processes: reads the environment once, validates every variable,
 * fills the defaults and runs the checks of `role` (checks.ts). Throws ConfigError.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, role?: ProcessRole): PlatformConfig {
  const raw: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined && value !== '') raw[key] = value;
  for (const key of NUMERIC_KEYS) if (typeof raw[key] === 'string') raw[key] = Number(raw[key]);

  const vars = plainToInstance(EnvironmentVariables, raw, { excludeExtraneousValues: false });
  const errors = validateSync(vars, { skipMissingProperties: false, forbidUnknownValues: false });
  if (errors.length > 0) {
    const detail = errors.map((e) => `${e.property}: ${Object.values(e.constraints ?? {}).join(', ')}`);
    throw new ConfigError(`invalid configuration:\n  ${detail.join('\n  ')}`);
  }

  const nodeEnv = (vars.NODE_ENV ?? DEFAULTS.nodeEnv) as NodeEnv;
  const production = nodeEnv === 'production';
  const dataDir = resolve(vars.DATA_DIR ?? DEFAULTS.dataDir);
  const controlPlanePort = vars.CONTROL_PLANE_PORT ?? DEFAULTS.controlPlanePort;

  const config: PlatformConfig = {
    nodeEnv,
    backendPort: vars.BACKEND_PORT ?? DEFAULTS.backendPort,
    backendMetricsPort: vars.BACKEND_METRICS_PORT ?? DEFAULTS.backendMetricsPort,
    backendMetricsHost: vars.BACKEND_METRICS_HOST ?? '127.0.0.1',
    controlPlanePort,
    controlPlaneUrl: (vars.CONTROL_PLANE_URL ?? `http://127.0.0.1:${controlPlanePort}`).replace(/\/$/, ''),
    sidecarGrpcAddress: vars.SIDECAR_GRPC_ADDRESS ?? DEFAULTS.sidecarGrpcAddress,
    sidecarHealthPort: vars.SIDECAR_HEALTH_PORT ?? DEFAULTS.sidecarHealthPort,
    dataDir,
    databaseUrl: vars.DATABASE_URL ?? `sqlite:${join(dataDir, 'platform.sqlite')}`,
    issuer: (vars.ISSUER ?? DEFAULTS.issuer).replace(/\/$/, ''),
    adminClientId: vars.ADMIN_CLIENT_ID ?? DEFAULTS.adminClientId,
    adminClientSecret: vars.ADMIN_CLIENT_SECRET,
    // Production never writes the development token file: checkConfig refuses the missing variable.
    internalToken: vars.INTERNAL_TOKEN ?? (production ? '' : generatedSecret(dataDir, 'internal-token')),
    // checkConfig makes the backend name one in production; generated only on first use.
    sessionSecret: () => vars.SESSION_SECRET ?? generatedSecret(dataDir, 'session-secret'),
    testSessionsFromClaims: vars.TEST_SESSIONS_FROM_CLAIMS === 'true',
    dpopNonceRequired: vars.DPOP_NONCE_REQUIRED === 'true',
    ...(vars.TEST_ANSWER_CHECK_FILE && { testAnswerCheckFile: vars.TEST_ANSWER_CHECK_FILE }),
    oidc: {
      issuer: vars.OIDC_ISSUER,
      clientId: vars.OIDC_CLIENT_ID,
      clientSecret: vars.OIDC_CLIENT_SECRET,
      ...(vars.OIDC_JWKS_URL && { jwksUrl: vars.OIDC_JWKS_URL }),
      scopes: vars.OIDC_SCOPES ?? DEFAULTS.oidcScopes,
      tenantClaim: vars.OIDC_TENANT_CLAIM ?? DEFAULTS.oidcTenantClaim,
      rolesClaim: vars.OIDC_ROLES_CLAIM ?? DEFAULTS.oidcRolesClaim,
    },
    logFormat: (vars.LOG_FORMAT as 'json' | 'text' | undefined) ?? (production ? 'json' : 'text'),
    revocationPollMs: vars.REVOCATION_POLL_MS ?? DEFAULTS.revocationPollMs,
    backendTokenCacheSize: count(vars.BACKEND_TOKEN_CACHE_SIZE) ?? DEFAULTS.backendTokenCacheSize,
    sidecar: {
      allowNonLoopback: vars.SIDECAR_ALLOW_NON_LOOPBACK === 'true',
      healthHost: vars.SIDECAR_HEALTH_HOST ?? DEFAULTS.sidecarHealthHost,
      tokenCacheSize: count(vars.SIDECAR_TOKEN_CACHE_SIZE) ?? DEFAULTS.sidecarTokenCacheSize,
      keyRefreshMs: DEFAULTS.keyRefreshMs,
      unknownKidRefreshIntervalMs: DEFAULTS.unknownKidRefreshIntervalMs,
    },
    shutdownDrainMs: count(vars.SHUTDOWN_DRAIN_MS) ?? (production ? DEFAULTS.shutdownDrainMs : 0),
    signingKeyRotationDays: count(vars.SIGNING_KEY_ROTATION_DAYS) ?? DEFAULTS.signingKeyRotationDays,
    refreshTokenAbsoluteLifetimeDays:
      count(vars.REFRESH_TOKEN_ABSOLUTE_LIFETIME_DAYS) ?? DEFAULTS.refreshTokenAbsoluteLifetimeDays,
    impersonationMaxLifetimeSeconds:
      count(vars.IMPERSONATION_MAX_LIFETIME_SECONDS) ?? DEFAULTS.impersonationMaxLifetimeSeconds,
    argon2Concurrency: count(vars.ARGON2_CONCURRENCY) ?? DEFAULTS.argon2Concurrency,
    argon2Nice: count(vars.ARGON2_NICE) ?? DEFAULTS.argon2Nice,
    retention: {
      graceSeconds: (count(vars.RETENTION_GRACE_MINUTES) ?? DEFAULTS.retentionGraceMinutes) * 60,
      tokenEventDays: count(vars.TOKEN_EVENT_RETENTION_DAYS) ?? DEFAULTS.tokenEventRetentionDays,
    },
    trustProxy: trustedProxies(vars.TRUST_PROXY),
    quotas: {
      redisUrl: vars.QUOTA_REDIS_URL,
      redisPrefix: vars.QUOTA_REDIS_PREFIX ?? 'platform',
    },
    rateLimits: {
      redisUrl: vars.RATE_LIMIT_REDIS_URL,
      clientPerMinute: count(vars.RATE_LIMIT_CLIENT_PER_MINUTE) ?? DEFAULTS.rateLimitClientPerMinute,
      addressPerMinute: count(vars.RATE_LIMIT_ADDRESS_PER_MINUTE) ?? DEFAULTS.rateLimitAddressPerMinute,
      failedAuthPerClient:
        count(vars.RATE_LIMIT_FAILED_AUTH_PER_CLIENT) ?? DEFAULTS.rateLimitFailedAuthPerClient,
      failedAuthPerAddress:
        count(vars.RATE_LIMIT_FAILED_AUTH_PER_ADDRESS) ?? DEFAULTS.rateLimitFailedAuthPerAddress,
      failedAuthWindowSeconds: DEFAULTS.rateLimitFailedAuthWindowSeconds,
    },
    secrets: {
      kek: () => keyEncryptionKey(vars, dataDir),
      previousKeks: (vars.SECRETS_KEK_PREVIOUS?.split(',') ?? []).map(decodeKek),
    },
    webhooks: {
      allowPrivateUrls:
        vars.WEBHOOK_ALLOW_PRIVATE_URLS === undefined
          ? !production
          : vars.WEBHOOK_ALLOW_PRIVATE_URLS === 'true',
      timeoutMs: count(vars.WEBHOOK_TIMEOUT_MS) ?? DEFAULTS.webhookTimeoutMs,
      concurrency: count(vars.WEBHOOK_CONCURRENCY) ?? DEFAULTS.webhookConcurrency,
    },
    liveStreams: definedOnly({
      perCaller: count(vars.LIVE_STREAMS_PER_CALLER),
      bufferedBytes: count(vars.LIVE_STREAM_BUFFER_BYTES),
      stallMs: count(vars.LIVE_STREAM_STALL_MS),
    }),
  };
  checkConfig(vars, config, role);
  return config;
}

/** A validated whole-number variable (its pattern is checked in environment.ts). */
const count = (value: string | undefined): number | undefined =>
  value === undefined ? undefined : Number(value);

/** The entries that are set: what is left out takes its default where it is read. */
const definedOnly = <T extends object>(values: T): Partial<T> =>
  Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Partial<T>;

/** proxy-addr's names of address ranges, as Fastify's `trustProxy` reads them. */
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * `TRUST_PROXY`: comma-separated IP addresses and CIDR ranges of the proxies (unset: none).
 * Never a hop count or "everyone": either would believe a client that reaches the backend
 * directly about its own address (Fastify refuses hop counts for that reason).
 */
function trustedProxies(value: string | undefined): string[] {
  if (value === undefined) return [];
  const entries = value.split(',').map((entry) => entry.trim());
  const wrong = entries.find((entry) => !NAMED_RANGES.has(entry) && !isAddressRange(entry));
  if (wrong !== undefined) {
    throw new ConfigError(
      `TRUST_PROXY must be the proxies' IP addresses or CIDR ranges, comma-separated (or loopback, linklocal, uniquelocal); "${wrong}" is not one`,
    );
  }
  return entries;
}

/** An IP address, or one with a prefix length its family allows (`10.0.0.0/8`, `fd00::/8`). */
function isAddressRange(entry: string): boolean {
  const [address, prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

const decodeKek = (encoded: string): Buffer => Buffer.from(encoded.trim(), 'base64url');

/**
 * The current key-encryption key: SECRETS_KEK, else SECRETS_KEK_FILE's content, else (outside
 * production, which checkConfig makes name one) a random key kept in DATA_DIR (mode 0600).
 */
function keyEncryptionKey(vars: EnvironmentVariables, dataDir: string): Buffer {
  if (vars.SECRETS_KEK) return decodeKek(vars.SECRETS_KEK);
  const file = vars.SECRETS_KEK_FILE ?? join(dataDir, 'secrets-kek');
  if (!vars.SECRETS_KEK_FILE) {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    writeOnce(file, randomBytes(32).toString('base64url'));
  }
  const key = decodeKek(readFileSync(file, 'utf8'));
  if (key.length !== 32) throw new ConfigError(`${file} must hold a 32-byte key in base64 or base64url`);
  return key;
}

/** Writes `content` unless the file exists: whichever process starts first creates it. */
function writeOnce(file: string, content: string): void {
  try {
    writeFileSync(file, content, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}

/**
 * Outside production the local processes agree on a generated secret (the internal token, the
 * session secret) through a file in DATA_DIR (mode 0600), created by whichever starts first.
 */
function generatedSecret(dataDir: string, name: 'internal-token' | 'session-secret'): string {
  const file = join(dataDir, name);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  writeOnce(file, randomBytes(32).toString('base64url'));
  return readFileSync(file, 'utf8').trim();
}
