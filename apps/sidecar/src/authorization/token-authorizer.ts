import { Injectable } from '@nestjs/common';
import { isAction } from '@platform/domain';
import type { TokenClaims } from '@platform/grpc';
import { TokenClaimsReader } from '../grpc/token-claims.reader';
import { AuthorizationError, invalidArgument } from './authorization.error';
import { PolicyDecider, type Decision } from './policy-decider';
import { principalOfClaims } from './principals';

/**
 * May this token do `action` on `tenant`: one token validation (as ValidateToken), one
 * enforced policy decision. Refused: PERMISSION_DENIED naming the decision. Every RPC that acts
 * for a token (Authorize, the audit service) asks here.
 */
@Injectable()
export class TokenAuthorizer {
  constructor(
    private readonly tokens: TokenClaimsReader,
    private readonly decider: PolicyDecider,
  ) {}

  async authorize(
    token: string,
    action: string,
    tenant: string,
  ): Promise<{ claims: TokenClaims; decision: Decision }> {
    if (!isAction(action)) throw invalidArgument('action must be a scope-shaped action such as jobs.read');
    const claims = await this.tokens.read(token);
    const decision = this.decider.decide(
      { principal: principalOfClaims(claims), action, resourceTenant: tenant || undefined },
      { enforced: true },
    );
    if (decision.effect !== 'allow') throw refusal(action, decision);
    return { claims, decision };
  }
}

/** PERMISSION_DENIED naming the decision id and the policies that decided. */
function refusal(action: string, decision: Decision): AuthorizationError {
  const by = decision.decidedBy.length > 0 ? decision.decidedBy.join(', ') : 'no policy (default deny)';
  return new AuthorizationError(
    'permission_denied',
    `denied ${action} (decision ${decision.decisionId}; decided by ${by}): ${decision.reason}`,
    decision,
  );
}
