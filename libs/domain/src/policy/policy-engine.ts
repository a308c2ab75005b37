import { scopeCovers, scopesCover } from '../scopes';
import type { Policy, PolicyDecision, PolicyRequest } from './policy';

/**
 * Evaluates requests against a policy set. Users are judged by their roles' policies; service
 * principals act as their app, by the scopes of their token, and bypass role policies (spec,
 * usage models).
 */
export class PolicyEngine {
  constructor(private readonly policies: readonly Policy[]) {}

  evaluate(request: PolicyRequest, candidates: readonly Policy[] = []): PolicyDecision {
    const { principal, action } = request;
    if (principal.kind === 'service') {
      return scopesCover(principal.scopes, action)
        ? { effect: 'allow', decidedBy: ['service-scopes'], reason: `the token's scopes cover ${action}` }
        : {
            effect: 'deny',
            decidedBy: ['service-scopes'],
            reason: `the token's scopes do not cover ${action}`,
          };
    }
    const matching = [...this.policies, ...candidates].filter((p) => this.applies(p, request));
    const denies = matching.filter((p) => p.effect === 'deny');
    if (denies.length > 0) {
      return { effect: 'deny', decidedBy: denies.map((p) => p.id), reason: denies[0].description };
    }
    const allows = matching.filter((p) => p.effect === 'allow');
    if (allows.length > 0) {
      return { effect: 'allow', decidedBy: allows.map((p) => p.id), reason: allows[0].description };
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
