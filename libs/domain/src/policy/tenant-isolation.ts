import { GLOBAL_ADMIN_ROLE } from '../admin';
import type { PolicyPrincipal } from './policy';

export interface IsolationVerdict {
  allowed: boolean;
  reason: string;
}

/**
 * May this principal touch resources of `resourceTenant` at all? A user may in its own tenant
 * and a bound app in its tenant; only `global_admin` crosses tenants. An unbound service app
 * acts platform-wide (its scopes, not a tenant, bound what it does).
 */
export function checkTenantIsolation(principal: PolicyPrincipal, resourceTenant: string): IsolationVerdict {
  if (principal.tenant === undefined) {
    return { allowed: true, reason: 'an unbound service app acts platform-wide' };
  }
  if (principal.tenant === resourceTenant) {
    return { allowed: true, reason: `same tenant (${resourceTenant})` };
  }
  if (principal.kind === 'user' && principal.roles.includes(GLOBAL_ADMIN_ROLE)) {
    return { allowed: true, reason: 'global_admin crosses tenants' };
  }
  const who = principal.kind === 'user' ? 'a user' : 'an app bound to';
  return {
    allowed: false,
    reason: `${who} tenant ${principal.tenant} may not reach into tenant ${resourceTenant}; only global_admin crosses tenants`,
  };
}
