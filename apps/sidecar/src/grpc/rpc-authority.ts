import { PLATFORM_ADMIN } from '@platform/domain';

/**
 * Where an RPC's tenant comes from: a field of the request (`request`; empty: platform-wide), the
 * caller's own tenant (`token`: a user's, a bound app's; platform-wide for an unbound app), the
 * request's field else the caller's own (`request-or-token`; an unbound app names one, unless
 * `platformWide`), the tenant part of a `secret://` reference, else as `request-or-token`
 * (`reference`), or none (no tenant at all). The decision then confines a user and a bound app
 * to their own tenant: naming another is PERMISSION_DENIED (TokenAuthorizer.authorizeRpc).
 */
export type RpcTenantSource = 'request' | 'token' | 'request-or-token' | 'reference' | 'none';

/**
 * What an RPC needs: a permission the decision grants (`jobs.read`, `admin.*`), the action the
 * request itself names (`requested`: Authorize, Evaluate), any valid token (`token`: the caller
 * learns about itself only), our own processes (`internal`: the internal token), or nothing
 * (`open`: public data, or a decision that acts for nobody).
 */
export interface RpcAuthority {
  permission: string | 'requested' | 'token' | 'internal' | 'open';
  tenant: RpcTenantSource;
  /**
   * `request-or-token` only: the RPC also serves platform-wide data, so an unbound app that names
   * no tenant acts platform-wide; without it, such an app has to name one (INVALID_ARGUMENT).
   */
  platformWide?: true;
}

/**
 * Every RPC of the sidecar, declared once (docs/authorization.md, "RPCs"): a spec checks that
 * each method of every `.proto` service has an entry, the isolation matrix reads it, and the
 * server refuses to start a handler without one.
 */
export const RPC_AUTHORITY = {
  'AuthService/ValidateToken': { permission: 'token', tenant: 'none' },
  'AuthService/Authorize': { permission: 'requested', tenant: 'request' },
  'AuthService/RevokeToken': { permission: 'internal', tenant: 'none' },
  'AuthService/GetJwks': { permission: 'open', tenant: 'none' },
  'AuthService/SyncRevocations': { permission: 'internal', tenant: 'none' },
  'AuthService/WatchInvalidations': { permission: 'internal', tenant: 'none' },
  'PolicyService/Evaluate': { permission: 'open', tenant: 'request' },
  'PolicyService/DryRun': { permission: 'open', tenant: 'request' },
  'TenantService/ResolveTenant': { permission: 'token', tenant: 'none' },
  'TenantService/ValidateIsolation': { permission: 'token', tenant: 'request' },
  'AuditService/EmitAuditEvent': {
    permission: 'audit.write',
    tenant: 'request-or-token',
    platformWide: true,
  },
  'AuditService/QueryAudit': { permission: 'audit.read', tenant: 'request-or-token' },
  'MaskingService/MaskString': { permission: 'masking.apply', tenant: 'token' },
  'MaskingService/Mask': { permission: 'masking.apply', tenant: 'token' },
  'RateLimitService/CheckRateLimit': { permission: 'ratelimit.check', tenant: 'request-or-token' },
  'RateLimitService/ResetRateLimit': { permission: PLATFORM_ADMIN, tenant: 'request-or-token' },
  'FlagService/EvaluateFlag': { permission: 'flags.read', tenant: 'request-or-token' },
  'SecretService/ResolveSecret': { permission: 'secrets.read', tenant: 'reference' },
  'JobService/SubmitJob': { permission: 'jobs.write', tenant: 'request-or-token' },
  'JobService/GetJob': { permission: 'jobs.read', tenant: 'request-or-token' },
  'JobService/ListJobs': { permission: 'jobs.read', tenant: 'request-or-token' },
  'JobService/CancelJob': { permission: 'jobs.write', tenant: 'request-or-token' },
  'JobService/WatchJob': { permission: 'jobs.read', tenant: 'request-or-token' },
  'JobService/GetJobLogs': { permission: 'jobs.read', tenant: 'request-or-token' },
  'JobService/GetJobOutput': { permission: 'jobs.read', tenant: 'request-or-token' },
  'EntitlementService/CheckEntitlement': { permission: 'entitlements.read', tenant: 'request-or-token' },
  'EntitlementService/ListEntitlements': { permission: 'entitlements.read', tenant: 'request-or-token' },
  'QuotaService/ConsumeQuota': { permission: 'quotas.consume', tenant: 'request-or-token' },
  'QuotaService/GetQuotaUsage': { permission: 'quotas.read', tenant: 'request-or-token' },
} as const satisfies Record<string, RpcAuthority>;

export type RpcName = keyof typeof RPC_AUTHORITY;

/** The RPCs that act for the caller's token: every one but the internal and open ones. */
export type TokenRpc = {
  [Name in RpcName]: (typeof RPC_AUTHORITY)[Name]['permission'] extends 'internal' | 'open' ? never : Name;
}[RpcName];

/**
 * The `@GrpcMethod` handlers (Nest's patterns: `{"service":"AuthService","rpc":"ValidateToken",...}`)
 * that have no entry in RPC_AUTHORITY, as `Service/Method`.
 */
export function undeclaredHandlers(patterns: Iterable<string>): string[] {
  const undeclared: string[] = [];
  for (const pattern of patterns) {
    const name = rpcNameOf(pattern);
    if (name === undefined || !(name in RPC_AUTHORITY)) undeclared.push(name ?? pattern);
  }
  return undeclared;
}

function rpcNameOf(pattern: string): string | undefined {
  try {
    const { service, rpc } = JSON.parse(pattern) as { service?: unknown; rpc?: unknown };
    if (typeof service !== 'string' || typeof rpc !== 'string') return undefined;
    // Nest accepts the service's short or fully qualified name (platform.auth.v1.AuthService).
    return `${service.slice(service.lastIndexOf('.') + 1)}/${rpc}`;
  } catch {
    return undefined;
  }
}
