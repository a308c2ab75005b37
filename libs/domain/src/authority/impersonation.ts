import { GLOBAL_ADMIN_ROLE } from '../admin';
import type { PolicyPrincipal } from '../policy/policy';
import { decide } from './decide';

/** The permission to obtain a token as another user (docs/authorization.md). */
export const IMPERSONATE = 'users.impersonate';

/**
 * May `impersonator` obtain a token as `target`? The decision on `users.impersonate` in the
 * target's tenant (a tenant_admin in its own tenant, a global_admin anywhere), and a global_admin
 * is impersonated by a global_admin only: nobody gains platform administration that way.
 * Answers why not, or null.
 */
export function impersonationRefusal(
  impersonator: PolicyPrincipal,
  target: { id: string; tenant: string; roles: readonly string[] },
): string | null {
  if (impersonator.kind !== 'user') return 'only a user impersonates';
  if (impersonator.id === target.id) return 'a user does not impersonate itself';
  const decision = decide(impersonator, IMPERSONATE, target.tenant);
  if (decision.effect !== 'allow') return decision.reason;
  if (target.roles.includes(GLOBAL_ADMIN_ROLE) && !impersonator.roles.includes(GLOBAL_ADMIN_ROLE)) {
    return 'a global_admin is impersonated by a global_admin only';
  }
  return null;
}
