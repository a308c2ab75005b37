/**
 * Every default of the platform's configuration, in one table (docs/configuration.md lists
 * them with their variables). Timings the specification fixes are here too, not variables.
 */
export const DEFAULTS = {
  nodeEnv: 'development',
  backendPort: 3000,
  /** Prometheus' conventional exporter port. */
  backendMetricsPort: 9464,
  controlPlanePort: 8080,
  sidecarGrpcAddress: '[::1]:50051',
  sidecarHealthHost: '127.0.0.1',
  sidecarHealthPort: 9091,
  dataDir: './data',
  issuer: 'http://localhost:3000',
  adminClientId: 'admin',
  oidcScopes: 'openid email profile',
  oidcTenantClaim: 'tenant',
  oidcRolesClaim: 'roles',
  /** Full re-read of the active deny-list by every sidecar, behind its stream. */
  revocationPollMs: 30_000,
  /** Entries of the backend's validation cache; 0 turns it off. */
  backendTokenCacheSize: 100_000,
  /** Entries of the sidecar's verified-token cache (at ~1 KiB a token, about 10 MiB); 0 turns it off. */
  sidecarTokenCacheSize: 10_000,
  /**
   * At SIGTERM, how long a process keeps serving while its readiness says 503 (production; 0
   * elsewhere, so development stops at once).
   */
  shutdownDrainMs: 5_000,
  /** The signing key is replaced after this many days (NIST SP 800-57's order for signing keys). */
  signingKeyRotationDays: 90,
  /**
   * Expired authorization codes, sessions and refresh-token families stay this long before the
   * retention sweep deletes them: a code replayed meanwhile still revokes what it issued.
   */
  retentionGraceMinutes: 60,
  /**
   * A refresh-token family ends this many days after its first token, however often it is
   * rotated (beside the specification's 30-day idle window; whichever comes first).
   */
  refreshTokenAbsoluteLifetimeDays: 90,
  impersonationMaxLifetimeSeconds: 900,
  /**
   * argon2 runs (client-secret checks that miss the cache) at once per control plane: each holds
   * a thread of libuv's pool, which also signs tokens, and 64 MiB.
   */
  argon2Concurrency: 2,
  /**
   * The scheduling priority of the argon2 processes (nice, 0-19): below the event loops, so a
   * flood of wrong secrets takes only the CPU the token path leaves (docs/performance.md: issuance
   * p99 under a flood 1.2-1.8x at 15, 1.7-2.0x at 10, 3.7x at 0).
   */
  argon2Nice: 15,
  /** Token events are listed this long; their audit records stay (docs/audit.md). */
  tokenEventRetentionDays: 30,
  /** Background refresh of the key set by the sidecar (the specification's 30 s). */
  keyRefreshMs: 30_000,
  /** An unknown `kid` triggers at most one key refresh per this interval. */
  unknownKidRefreshIntervalMs: 5_000,
  /**
   * Requests per minute to the token, introspection and revocation endpoints per client and
   * per source address: far above legitimate load (10,000 and 20,000 a second), a flood stop.
   */
  rateLimitClientPerMinute: 600_000,
  rateLimitAddressPerMinute: 1_200_000,
  /** Failed client authentications per client and address, and per address, per window. */
  rateLimitFailedAuthPerClient: 10,
  rateLimitFailedAuthPerAddress: 100,
  /** The failed-authentication window, and how long a source stays refused once over. */
  rateLimitFailedAuthWindowSeconds: 900,
  /** How long a webhook receiver has to answer one delivery. */
  webhookTimeoutMs: 15_000,
  /** Webhook deliveries in flight at once, per control-plane replica. */
  webhookConcurrency: 64,
} as const;
