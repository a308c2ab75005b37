/**
 * The expected answer of every cell of the isolation matrix, written from the documented model
 * (docs/authorization.md: the principals, the default role bundle of
 * libs/domain/src/policy/default-policies.ts), never by asking the implementation's decision.
 * Kept deliberately plain: a reviewer checks it against the documentation line by line.
 */

/** Who calls. A user's token went through its grant (its app's consent); a service token is its app's own. */
export type Principal =
  | { kind: 'user'; tenant: string; roles: string[]; scopes: string[] }
  | { kind: 'service'; scopes: string[]; /** the tenant the app is bound to */ tenant?: string };

/**
 * - `allow`: got past authorization;
 * - `deny`: refused by authorization (HTTP 403, gRPC PERMISSION_DENIED);
 * - `unauthenticated`: the principal's credential does not count here (HTTP 401, UNAUTHENTICATED);
 * - `as-anonymous`: the Bearer token changes nothing (browser routes answer as without it).
 */
export type Outcome = 'allow' | 'deny' | 'unauthenticated' | 'as-anonymous';

/**
 * What an operation needs, as declared (`x-authority`, RPC_AUTHORITY), plus what the oracle must
 * know of a decision RPC: `reach` (ValidateIsolation answers whether the caller reaches the
 * tenant) and `requested` (Authorize decides the action named in the request: the probe's).
 */
export type Need = { permission: string };

export const PLATFORM_ADMIN = 'admin.*';
/** The action the matrix asks Authorize about. */
export const PROBE_ACTION = 'users.read';

/** Scopes only a service app exercises: never a user token, whatever its scopes and roles. */
const SERVICE_ONLY = [PLATFORM_ADMIN, 'jobs.work', 'tokens.introspect'];

/** Every role may check rate limits, evaluate flags, mask data and read entitlements and quotas in its own tenant. */
const PLATFORM_SERVICES = [
  'ratelimit.check',
  'flags.read',
  'masking.apply',
  'entitlements.read',
  'quotas.read',
];

/** The default role bundle, own tenant only; global_admin does anything anywhere. */
const ROLE_BUNDLE: Record<string, readonly string[]> = {
  tenant_admin: [
    'jobs.read',
    'jobs.write',
    'files.*',
    'secrets.*',
    'audit.write',
    'audit.read',
    'users.*',
    'scim.*',
    'federation.*',
    'saml.*',
    'quotas.consume',
    ...PLATFORM_SERVICES,
  ],
  user: [
    'jobs.read',
    'jobs.write',
    'files.read',
    'files.write',
    'secrets.read',
    'users.read',
    'quotas.consume',
    ...PLATFORM_SERVICES,
  ],
  viewer: ['jobs.read', 'files.read', 'users.read', ...PLATFORM_SERVICES],
};

const SCOPE_SHAPED = /^[a-z][a-z0-9_-]*(\.[a-z][a-z0-9_-]*)*\.([a-z][a-z0-9_-]*|\*)$/;

/** `jobs.*` covers `jobs.read`; a scope covers itself. */
export function covers(granted: string, wanted: string): boolean {
  if (granted === wanted) return true;
  return (
    granted.endsWith('.*') && wanted.startsWith(granted.slice(0, -1)) && wanted.length > granted.length - 1
  );
}

const anyCovers = (granted: readonly string[], wanted: string) => granted.some((g) => covers(g, wanted));
const serviceOnly = (scope: string) => anyCovers(SERVICE_ONLY, scope);

/** The unbound admin app, or a global_admin user (never a user through a scope, never a bound app). */
export function isPlatformAdmin(principal: Principal): boolean {
  return principal.kind === 'user'
    ? principal.roles.includes('global_admin')
    : principal.tenant === undefined && principal.scopes.includes(PLATFORM_ADMIN);
}

/** May the principal touch resources of `tenant` at all? Users and bound apps: their own only. */
export function reaches(principal: Principal, tenant: string): boolean {
  if (isPlatformAdmin(principal)) return true;
  return principal.tenant === undefined || principal.tenant === tenant;
}

/** May the principal do `action` on a resource of `tenant` ('' = platform-wide)? */
export function mayDo(principal: Principal, action: string, tenant: string): boolean {
  if (action === PLATFORM_ADMIN) return isPlatformAdmin(principal);
  if (principal.kind === 'service') {
    // A bound app acts in its tenant only, never platform-wide; its scopes decide there.
    if (principal.tenant !== undefined)
      return tenant === principal.tenant && anyCovers(principal.scopes, action);
    // The unbound admin app may do everything; any other unbound app what its scopes cover, anywhere.
    return principal.scopes.includes(PLATFORM_ADMIN) || anyCovers(principal.scopes, action);
  }
  // A user: no service-only action, the token's scopes (service-only ones never count) first...
  if (serviceOnly(action)) return false;
  if (
    !anyCovers(
      principal.scopes.filter((scope) => !serviceOnly(scope)),
      action,
    )
  )
    return false;
  // ...then the roles: global_admin anywhere, the others in their own tenant only (a
  // platform-wide resource is no tenant's own).
  if (principal.roles.includes('global_admin')) return true;
  if (tenant !== principal.tenant) return false;
  return principal.roles.some((role) => anyCovers(ROLE_BUNDLE[role] ?? [], action));
}

/**
 * The expected outcome of `principal` calling an operation needing `need` on `tenant` ('' =
 * platform-wide), or undefined when the oracle does not know what the operation needs (the
 * matrix fails on it).
 */
export function expectedOutcome(principal: Principal, need: Need, tenant: string): Outcome | undefined {
  switch (need.permission) {
    case 'none':
    case 'open':
    case 'token':
    case 'own-token':
      return 'allow';
    case 'openid':
      return principal.scopes.includes('openid') ? 'allow' : 'deny';
    case 'session':
      return 'as-anonymous';
    case 'client':
      // Apps call with their client credentials; a user's Bearer token authenticates no client.
      return principal.kind === 'service' ? 'allow' : 'unauthenticated';
    case 'internal':
      return 'unauthenticated';
    case 'reach':
      return reaches(principal, tenant) ? 'allow' : 'deny';
    case 'requested':
      return mayDo(principal, PROBE_ACTION, tenant) ? 'allow' : 'deny';
    default:
      if (!SCOPE_SHAPED.test(need.permission)) return undefined;
      return mayDo(principal, need.permission, tenant) ? 'allow' : 'deny';
  }
}

/** Is `permission` one a principal's scope can carry (so the matrix registers apps holding it)? */
export const isScopePermission = (permission: string) => SCOPE_SHAPED.test(permission);
