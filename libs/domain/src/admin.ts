import { ADMIN_SCOPE, parseScope, scopesCover } from './scopes';

/** The role of a platform-wide administrator user (the default role bundle's first). */
export const GLOBAL_ADMIN_ROLE = 'global_admin';

/** Scopes that make their holder (an app, a service token) a platform administrator. */
export function holdsAdminScope(scopes: readonly string[]): boolean {
  return scopesCover(scopes, ADMIN_SCOPE);
}

/**
 * An admin token: one carrying `admin.*`, or a user token with the `global_admin` role
 * (ARCHITECTURE.md section 4). The one rule every process applies to a token's claims.
 */
export function isAdminToken(claims: { scope: string; roles?: readonly string[] }): boolean {
  return holdsAdminScope(parseScope(claims.scope)) || (claims.roles ?? []).includes(GLOBAL_ADMIN_ROLE);
}
