/**
 * Scope names are `resource.action`; a declared `resource.*` covers every action of the
 * resource and `resource.*` itself. `admin.*` is an ordinary wildcard over `admin.`.
 */
export const SCOPE_PATTERN = /^[a-z][a-z0-9_-]*(?:\.[a-z][a-z0-9_-]*)*\.(?:[a-z][a-z0-9_-]*|\*)$/;

export const STANDARD_SCOPES: ReadonlyArray<{ name: string; description: string }> = [
  { name: 'jobs.read', description: 'List and view job executions' },
  { name: 'jobs.write', description: 'Create, cancel, manage jobs' },
  { name: 'jobs.work', description: 'Claim and run jobs as a worker (leases, heartbeats, logs, results)' },
  { name: 'files.read', description: 'Read file content and metadata' },
  { name: 'files.write', description: 'Upload and delete files' },
  { name: 'secrets.read', description: 'Read secret values' },
  { name: 'secrets.write', description: 'Create and update secrets' },
  { name: 'audit.write', description: 'Write audit events' },
  { name: 'audit.read', description: 'Read the audit log of a tenant' },
  { name: 'admin.*', description: 'Full administrative access' },
  { name: 'tokens.introspect', description: 'Introspect tokens issued to any application' },
  { name: 'users.read', description: 'List users and their roles in a tenant' },
  { name: 'users.write', description: 'Assign roles to users' },
  { name: 'scim.read', description: 'Read the users and groups of a tenant over SCIM 2.0' },
  { name: 'scim.write', description: 'Provision users and groups of a tenant over SCIM 2.0' },
  {
    name: 'ratelimit.check',
    description: "Check and count requests against a tenant's rate limits (sidecar)",
  },
  { name: 'flags.read', description: "Evaluate a tenant's feature flags (sidecar)" },
  { name: 'masking.apply', description: 'Mask personal data and credentials in text and JSON (sidecar)' },
  { name: 'entitlements.read', description: "Read and check a tenant's plan entitlements" },
  { name: 'quotas.read', description: "Read a tenant's quotas and their use" },
  { name: 'quotas.consume', description: "Consume units of a tenant's quotas (sidecar)" },
  { name: 'federation.read', description: "Read a tenant's trusted workload issuers and their rules" },
  { name: 'federation.write', description: "Register and change a tenant's trusted workload issuers" },
  { name: 'saml.read', description: "Read a tenant's SAML identity provider registration" },
  { name: 'saml.write', description: "Register, replace and remove a tenant's SAML identity provider" },
];

export const ADMIN_SCOPE = 'admin.*';

export function parseScope(scope: string | undefined | null): string[] {
  if (!scope) return [];
  return [...new Set(scope.split(' ').filter((s) => s.length > 0))];
}

export function formatScope(scopes: readonly string[]): string {
  return scopes.join(' ');
}

/** Does the declared scope `granted` permit `requested`? */
export function scopeCovers(granted: string, requested: string): boolean {
  if (granted === requested) return true;
  if (!granted.endsWith('.*')) return false;
  const prefix = granted.slice(0, -1); // keeps the trailing dot
  return requested.startsWith(prefix) && requested.length > prefix.length;
}

export function scopesCover(granted: readonly string[], requested: string): boolean {
  return granted.some((g) => scopeCovers(g, requested));
}

/** The requested scopes no declared scope covers (empty when all are allowed). */
export function uncoveredScopes(declared: readonly string[], requested: readonly string[]): string[] {
  return requested.filter((r) => !scopesCover(declared, r));
}

/**
 * A scope is "defined" when it is a standard or custom scope, or is covered by a defined
 * wildcard (`jobs.*` defines `jobs.read`), or is a wildcard over a defined resource.
 */
export function isDefinedScope(scope: string, defined: readonly string[]): boolean {
  if (scopesCover(defined, scope)) return true;
  if (scope.endsWith('.*')) {
    const prefix = scope.slice(0, -1);
    return defined.some((d) => d.startsWith(prefix));
  }
  return false;
}
