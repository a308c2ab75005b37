import { ADMIN_SCOPE, scopeCovers, scopesCover } from '../scopes';
import { type Policy, type PolicyDecision, type PolicyRequest, TOKEN_SCOPE_CHECK } from './policy';

/**
 * Do the token's scopes cover `action`? `admin.*` covers every action (an admin token acts
 * everywhere its roles, if any, let it); otherwise the usual `resource.*` wildcards apply.
 */
export function tokenScopesCover(scopes: readonly string[], action: string): boolean {
  return scopes.includes(ADMIN_SCOPE) || scopesCover(scopes, action);
}

/**
 * Evaluates requests against a policy set (docs/internal-api.md, "The user-forwarding model"):
 * - every token first needs its scopes to cover the action (`token-scope`);
 * - a service principal acts as its app: that is all, role policies are bypassed (spec, usage
 *   models);
 * - a user then needs a role policy allowing the action on the resource's tenant: an explicit
 *   deny wins, nothing matching is a default deny.
 * Pure and synchronous: the sidecar runs it on every protected request.
 */
export class PolicyEngine {
  constructor(private readonly policies: readonly Policy[]) {}

  evaluate(request: PolicyRequest, candidates: readonly Policy[] = []): PolicyDecision {
    const { principal, action } = request;
    if (!tokenScopesCover(principal.scopes, action)) {
      return {
        effect: 'deny',
        decidedBy: [TOKEN_SCOPE_CHECK],
        reason: `the token's scope does not cover ${action}`,
      };
    }
    if (principal.kind === 'service') {
      return {
        effect: 'allow',
        decidedBy: [TOKEN_SCOPE_CHECK],
        reason: `the token's scope covers ${action} (service token acting as its app)`,
      };
    }
    // One pass over the active policies, then the candidates (DryRun): no intermediate arrays.
    let denies: Policy[] | undefined;
    let allows: Policy[] | undefined;
    for (const set of [this.policies, candidates]) {
      for (const policy of set) {
        if (!this.applies(policy, request)) continue;
        if (policy.effect === 'deny') (denies ??= []).push(policy);
        else (allows ??= []).push(policy);
      }
    }
    if (denies !== undefined) {
      return { effect: 'deny', decidedBy: denies.map((p) => p.id), reason: denies[0].description };
    }
    if (allows !== undefined) {
      return {
        effect: 'allow',
        decidedBy: [TOKEN_SCOPE_CHECK, ...allows.map((p) => p.id)],
        reason: allows[0].description,
      };
    }
    return { effect: 'deny', decidedBy: [], reason: `no policy allows ${action} (default deny)` };
  }

  private applies(policy: Policy, { principal, action, resourceTenant }: PolicyRequest): boolean {
    if (principal.kind !== 'user') return false;
    const roleMatches = policy.roles.includes('*') || policy.roles.some((r) => principal.roles.includes(r));
    if (!roleMatches) return false;
    if (!policy.actions.some((a) => a === '*' || scopeCovers(a, action))) return false;
    const crossTenant = resourceTenant !== undefined && resourceTenant !== principal.tenant;
    switch (policy.tenants) {
      case 'any':
        return true;
      case 'own':
        return !crossTenant;
      case 'other':
        return crossTenant;
    }
  }
}
