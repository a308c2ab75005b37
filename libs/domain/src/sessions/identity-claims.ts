import type { ExternalUserInput } from '../users/user';

/** The platform's role bundle (0.6.0); roles from the identity provider outside it are dropped. */
export const ROLE_BUNDLE = ['global_admin', 'tenant_admin', 'user', 'viewer'] as const;
export type Role = (typeof ROLE_BUNDLE)[number];

export const DEFAULT_TENANT = 'default';
export const DEFAULT_ROLES: readonly Role[] = ['user'];

/** Names of the ID token / userinfo claims that carry the tenant and the roles. */
export interface IdentityClaimNames {
  tenantClaim: string;
  rolesClaim: string;
}

/** A user as the identity provider describes it, after the backend verified the ID token. */
export interface ExternalIdentity {
  issuer: string;
  subject: string;
  claims: Readonly<Record<string, unknown>>;
}

export type ExternalUser = ExternalUserInput;

/**
 * Maps provider claims to a user: `email` and `name` as given, the tenant claim (else
 * `default`) and the roles claim, an array or a space-separated string, kept to names of the
 * role bundle (else `user`). A provider that sends no roles claim leaves role management to the
 * admin API: the stored roles of a known user are kept.
 */
export function userFromIdentity(identity: ExternalIdentity, names: IdentityClaimNames): ExternalUser {
  const { claims } = identity;
  const tenant = nonEmptyString(claims[names.tenantClaim]) ?? DEFAULT_TENANT;
  const rolesClaim = claims[names.rolesClaim];
  const roles = bundleRoles(rolesClaim);
  return {
    issuer: identity.issuer,
    subject: identity.subject,
    email: nonEmptyString(claims.email),
    name: nonEmptyString(claims.name),
    tenant,
    roles: roles.length > 0 ? roles : [...DEFAULT_ROLES],
    keepStoredRoles: rolesClaim === undefined || rolesClaim === null,
  };
}

function nonEmptyString(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

function bundleRoles(value: unknown): Role[] {
  const names = typeof value === 'string' ? value.split(/\s+/) : Array.isArray(value) ? value : [];
  const known = names.filter((n): n is Role => (ROLE_BUNDLE as readonly unknown[]).includes(n));
  return [...new Set(known)];
}
