import { GLOBAL_ADMIN_ROLE } from '../admin';
import type { PolicyPrincipal } from './policy';

export interface IsolationVerdict {
  allowed: boolean;
  reason: string;
}

/**
 * May this principal touch resources of `resourceTenant` at all? A user may in its own tenant;
 * only `global_admin` crosses tenants. A service token acts as its app, platform-wide (its
 * scopes, not a tenant, bound what it does).
 */
export function checkTenantIsolation(principal: PolicyPrincipal, resourceTenant: string): IsolationVerdict {
  if (principal.kind === 'service') {
    return { allowed: true, reason: 'service tokens act as their app, platform-wide' };
  }
  if (principal.tenant === resourceTenant) {
    return { allowed: true, reason: `same tenant (${resourceTenant})` };
  }
  if (principal.roles.includes(GLOBAL_ADMIN_ROLE)) {
    return { allowed: true, reason: 'global_admin crosses tenants' };
  }
  return {
    allowed: false,
    reason: `a user of tenant ${principal.tenant} may not reach into tenant ${resourceTenant}; only global_admin crosses tenants`,
  };
}
