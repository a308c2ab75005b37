import { GLOBAL_ADMIN_ROLE } from '../admin';
import { isServiceOnlyScope, userScopes } from '../authority/reserved-scopes';
import { ADMIN_SCOPE, scopeCovers, scopesCover } from '../scopes';
import {
  PLATFORM_ADMIN,
  type Policy,
  type PolicyDecision,
  type PolicyPrincipal,
  type PolicyRequest,
  isReadAction,
  READ_ONLY_IMPERSONATION,
  TOKEN_SCOPE_CHECK,
} from './policy';

const deny = (decidedBy: string[], reason: string, crossTenant = false): PolicyDecision => ({
  effect: 'deny',
  decidedBy,
  reason,
  ...(crossTenant && { crossTenant }),
});
const allow = (decidedBy: string[], reason: string): PolicyDecision => ({
  effect: 'allow',
  decidedBy,
  reason,
});

/**
 * The one decision of the platform (docs/authorization.md): may this principal do `action` on a
 * resource of `resourceTenant` (none: platform-wide)? Every guard, RPC and control-plane check
 * asks it; none decides on its own.
 * - Platform administration (`admin.*`) belongs to the unbound admin app and to `global_admin`
 *   users, never to a user through a scope.
 * - A service app acts as itself: its token's scopes decide, inside its tenant when it is bound.
 * - A user's permissions are the token's scopes intersected with what its roles allow: the
 *   scopes are checked first (service-only ones never count), then the role policies, where an
 *   explicit deny wins and nothing matching is a default deny. A platform-wide resource is not
 *   in the user's tenant: only `global_admin` reaches it.
 * - An impersonation token of a tenant that made impersonation read-only reads, nothing more.
 * Pure and synchronous: the sidecar runs it on every protected request.
 */
export class PolicyEngine {
  constructor(private readonly policies: readonly Policy[]) {}

  evaluate(request: PolicyRequest, candidates: readonly Policy[] = []): PolicyDecision {
    const { principal, action } = request;
    const tenant = request.resourceTenant || undefined;
    if (principal.kind === 'user' && principal.readOnly && !isReadAction(action)) {
      return deny([READ_ONLY_IMPERSONATION], `a read-only impersonation token may not ${action}`);
    }
    if (action === PLATFORM_ADMIN) return this.platformAdmin(principal);
    if (principal.kind === 'service') return this.service(principal, action, tenant);
    if (isServiceOnlyScope(action)) {
      return deny(['service-only'], `${action} is for service apps only, never for a user token`);
    }
    if (!scopesCover(userScopes(principal.scopes), action)) {
      return deny([TOKEN_SCOPE_CHECK], `the token's scope does not cover ${action}`);
    }
    // One pass over the active policies, then the candidates (DryRun): no intermediate arrays.
    let denies: Policy[] | undefined;
    let allows: Policy[] | undefined;
    for (const set of [this.policies, candidates]) {
      for (const policy of set) {
        if (!applies(policy, principal, action, tenant)) continue;
        if (policy.effect === 'deny') (denies ??= []).push(policy);
        else (allows ??= []).push(policy);
      }
    }
    const crossTenant = tenant !== undefined && tenant !== principal.tenant;
    if (denies !== undefined) {
      return deny(
        denies.map((p) => p.id),
        denies[0].description,
        crossTenant,
      );
    }
    if (allows !== undefined) {
      return allow([TOKEN_SCOPE_CHECK, ...allows.map((p) => p.id)], allows[0].description);
    }
    return deny([], `no policy allows ${action} (default deny)`, crossTenant);
  }

  private platformAdmin(principal: PolicyPrincipal): PolicyDecision {
    if (principal.kind === 'user') {
      return principal.roles.includes(GLOBAL_ADMIN_ROLE)
        ? allow(['global-admin'], 'a global_admin user administers the platform')
        : deny(['platform-admin'], 'platform administration needs the global_admin role; no scope grants it');
    }
    if (principal.tenant !== undefined) {
      return deny(
        ['tenant-binding'],
        `an app bound to tenant ${principal.tenant} does not administer the platform`,
      );
    }
    return principal.scopes.includes(ADMIN_SCOPE)
      ? allow([TOKEN_SCOPE_CHECK], 'the admin app (admin.*) administers the platform')
      : deny([TOKEN_SCOPE_CHECK], `the token's scope does not cover ${ADMIN_SCOPE}`);
  }

  private service(
    principal: Extract<PolicyPrincipal, { kind: 'service' }>,
    action: string,
    tenant: string | undefined,
  ): PolicyDecision {
    if (principal.tenant !== undefined && tenant !== principal.tenant) {
      return deny(
        ['tenant-binding'],
        tenant === undefined
          ? `an app bound to tenant ${principal.tenant} has no platform-wide reach`
          : `an app bound to tenant ${principal.tenant} may not reach into tenant ${tenant}`,
        tenant !== undefined,
      );
    }
    // admin.* covers every action of the unbound admin app; a bound app never holds it.
    const covered =
      (principal.tenant === undefined && principal.scopes.includes(ADMIN_SCOPE)) ||
      scopesCover(principal.scopes, action);
    return covered
      ? allow([TOKEN_SCOPE_CHECK], `the token's scope covers ${action} (service token acting as its app)`)
      : deny([TOKEN_SCOPE_CHECK], `the token's scope does not cover ${action}`);
  }
}

function applies(
  policy: Policy,
  principal: Extract<PolicyPrincipal, { kind: 'user' }>,
  action: string,
  tenant: string | undefined,
): boolean {
  const roleMatches = policy.roles.includes('*') || policy.roles.some((r) => principal.roles.includes(r));
  if (!roleMatches) return false;
  if (!policy.actions.some((a) => a === '*' || scopeCovers(a, action))) return false;
  // A platform-wide resource is no user's own: only an `any` policy (global_admin) reaches it.
  const crossTenant = tenant !== principal.tenant;
  switch (policy.tenants) {
    case 'any':
      return true;
    case 'own':
      return !crossTenant;
    case 'other':
      return crossTenant;
  }
}
