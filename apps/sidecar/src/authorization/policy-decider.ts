import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import {
  DEFAULT_POLICIES,
  type Policy,
  type PolicyDecision,
  PolicyEngine,
  type PolicyPrincipal,
  type PolicyRequest,
} from '@platform/domain';

/** A decision as the sidecar answers it: unique id, and whether it is enforced (not a dry run). */
export interface Decision extends PolicyDecision {
  decisionId: string;
  enforced: boolean;
}

export interface DecideOptions {
  /** DryRun: candidate policies evaluated beside the active ones. */
  candidates?: readonly Policy[];
  enforced: boolean;
}

/**
 * Runs the in-memory PolicyEngine over the active policies (the default role bundle), gives
 * every decision a random id, and logs every denied one with its id, the principal, the action
 * and the deciding policies (never the token).
 */
@Injectable()
export class PolicyDecider {
  private readonly logger = new Logger('PolicyDecisions');
  private readonly engine = new PolicyEngine(DEFAULT_POLICIES);

  decide(request: PolicyRequest, { candidates, enforced }: DecideOptions): Decision {
    const decision: Decision = {
      ...this.engine.evaluate(request, candidates),
      decisionId: randomUUID(),
      enforced,
    };
    if (decision.effect === 'deny') this.logDenial(request, decision);
    return decision;
  }

  private logDenial(request: PolicyRequest, decision: Decision): void {
    const by = decision.decidedBy.length > 0 ? decision.decidedBy.join(',') : 'default-deny';
    this.logger.log(
      `decision ${decision.decisionId}${decision.enforced ? '' : ' (dry run)'}: deny ` +
        `${request.action} on ${request.resourceTenant ?? '(platform)'} for ${describe(request.principal)}; ` +
        `decided by ${by}: ${decision.reason}`,
    );
  }
}

function describe(principal: PolicyPrincipal): string {
  return principal.kind === 'user'
    ? `user ${principal.id} of ${principal.tenant} [${principal.roles.join(',')}] via ${principal.clientId}`
    : `service ${principal.clientId}`;
}
