import { ADMIN_SCOPE, scopesCover } from './scopes';

/** The role of a platform-wide administrator user (the default role bundle's first). */
export const GLOBAL_ADMIN_ROLE = 'global_admin';

/** Do these (declared) scopes hold `admin.*`? Whether a token may administer is `isAdminToken`'s. */
export function holdsAdminScope(scopes: readonly string[]): boolean {
  return scopesCover(scopes, ADMIN_SCOPE);
}
