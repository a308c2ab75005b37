import { DEFAULT_POLICIES } from '../policy/default-policies';
import { PLATFORM_ADMIN, type PolicyDecision, type PolicyPrincipal } from '../policy/policy';
import { PolicyEngine } from '../policy/policy-engine';
import { type PrincipalClaims, principalOfClaims } from './principal';

const DEFAULT_ENGINE = new PolicyEngine(DEFAULT_POLICIES);

/**
 * The decision over the default role bundle, for every process that has no policy set of its
 * own (the sidecar's decider runs the same engine, with DryRun candidates).
 * `tenant`: the tenant the resource belongs to; '' for a platform-wide one.
 */
export function decide(principal: PolicyPrincipal, action: string, tenant = ''): PolicyDecision {
  return DEFAULT_ENGINE.evaluate({ principal, action, resourceTenant: tenant || undefined });
}

/** May this principal administer the platform (the admin app, or a `global_admin` user)? */
export function isPlatformAdministrator(principal: PolicyPrincipal): boolean {
  return decide(principal, PLATFORM_ADMIN).effect === 'allow';
}

/** An admin token (ARCHITECTURE.md section 4), as the decision judges its claims. */
export function isAdminToken(claims: PrincipalClaims): boolean {
  return isPlatformAdministrator(principalOfClaims(claims));
}
