import { ADMIN_SCOPE, scopesCover } from '../scopes';
import type { AppType } from '../registry/application';

/**
 * Scopes only a service app may hold (docs/authorization.md): platform administration, working
 * jobs as a worker, and introspecting other apps' tokens as a resource server. A user-facing
 * app (web, spa, cli) cannot declare them, and a user token never exercises them, whatever it
 * carries.
 */
export const SERVICE_ONLY_SCOPES: readonly string[] = [ADMIN_SCOPE, 'jobs.work', 'tokens.introspect'];

/** Is `scope` (a declared scope or an action) one that only a service may hold? */
export function isServiceOnlyScope(scope: string): boolean {
  return scopesCover(SERVICE_ONLY_SCOPES, scope);
}

/**
 * The declared scopes an app of `appType` may not hold: for a user-facing app every scope a
 * service-only scope covers (`admin.*`, `admin.keys`, `jobs.work`, `tokens.introspect`). A
 * wider wildcard such as `jobs.*` stays allowed: it grants users `jobs.read` and `jobs.write`,
 * never `jobs.work` (the decision refuses that permission to users).
 */
export function refusedScopesFor(appType: AppType, declared: readonly string[]): string[] {
  if (appType === 'service') return [];
  return declared.filter(isServiceOnlyScope);
}

/** The scopes of a user token that count: the service-only ones are dropped. */
export function userScopes(scopes: readonly string[]): string[] {
  return scopes.filter((scope) => !isServiceOnlyScope(scope));
}
