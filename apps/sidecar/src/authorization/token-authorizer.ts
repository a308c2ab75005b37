import { Injectable } from '@nestjs/common';
import { isAction, type PolicyPrincipal } from '@platform/domain';
import type { TokenClaims } from '@platform/grpc';
import { RPC_AUTHORITY, type RpcAuthority, type TokenRpc } from '../grpc/rpc-authority';
import { TokenClaimsReader } from '../grpc/token-claims.reader';
import type { DpopPresentation } from '../validation/token-validator';
import { AuthorizationError, invalidArgument } from './authorization.error';
import { CrossTenantRefusalReporter } from './cross-tenant-reporter';
import { PolicyDecider, type Decision } from './policy-decider';
import { principalOfClaims } from './principals';

/**
 * What a call names: the caller's token, a tenant ('' for none) and, for Authorize, an action;
 * for ValidateToken and Authorize, the audience the token must be for ('' for the issuer).
 */
export interface RpcCall {
  token?: string;
  tenant?: string;
  action?: string;
  audience?: string;
  /** ValidateToken and Authorize: the DPoP proof and the request it names (RFC 9449). */
  dpop?: DpopPresentation;
}

/**
 * A call allowed by its RPC's declaration: who calls, in which tenant, and the decision (none
 * for an RPC any valid token may call, `permission: 'token'`).
 */
export type AuthorizedCall<Rpc extends TokenRpc> = {
  claims: TokenClaims;
  principal: PolicyPrincipal;
  /** The tenant the call acts in, by the RPC's declared source; '' is platform-wide. */
  tenant: string;
} & ((typeof RPC_AUTHORITY)[Rpc]['permission'] extends 'token' ? unknown : { decision: Decision });

/**
 * May this token make this call: one token validation (as ValidateToken), the tenant taken
 * where the RPC's entry in RPC_AUTHORITY says, and one enforced policy decision of the
 * permission it declares (docs/authorization.md, "RPCs"). Refused: PERMISSION_DENIED naming the
 * decision. Every RPC that acts for a token asks here; none decides on its own.
 */
@Injectable()
export class TokenAuthorizer {
  constructor(
    private readonly tokens: TokenClaimsReader,
    private readonly decider: PolicyDecider,
    private readonly refusals: CrossTenantRefusalReporter,
  ) {}

  async authorizeRpc<Rpc extends TokenRpc>(rpc: Rpc, call: RpcCall): Promise<AuthorizedCall<Rpc>> {
    const authority: RpcAuthority = RPC_AUTHORITY[rpc];
    const { permission } = authority;
    const action = permission === 'requested' ? requestedAction(call.action ?? '') : permission;
    const claims = await this.tokens.read(call.token ?? '', call.audience ?? '', call.dpop);
    const principal = principalOfClaims(claims);
    const tenant = tenantOfRpc(authority, principal, call.tenant ?? '');
    const decision = permission === 'token' ? undefined : this.decide(claims, principal, action, tenant);
    return { claims, principal, tenant, decision } as AuthorizedCall<Rpc>;
  }

  /** Refused: PERMISSION_DENIED; a cross-tenant refusal is also reported to be audited. */
  private decide(claims: TokenClaims, principal: PolicyPrincipal, action: string, tenant: string): Decision {
    const decision = this.decider.decide(
      { principal, action, resourceTenant: tenant || undefined },
      { enforced: true },
    );
    if (decision.effect === 'allow') return decision;
    if (decision.crossTenant === true) {
      this.refusals.report(claims, { action, tenant, decisionId: decision.decisionId });
    }
    throw refusal(action, decision);
  }
}

/** The action a request asks about (Authorize), checked before anything is read. */
function requestedAction(action: string): string {
  if (!isAction(action)) throw invalidArgument('action must be a scope-shaped action such as jobs.read');
  return action;
}

/**
 * The tenant a call acts in, from the source its RPC declares. The caller's own tenant is a
 * user's or a bound app's; an unbound app's is the platform (''), which is no tenant to read a
 * tenant's data in: it names one. Whether the caller may reach the tenant is the decision's.
 */
function tenantOfRpc(authority: RpcAuthority, principal: PolicyPrincipal, named: string): string {
  const own = principal.tenant ?? '';
  switch (authority.tenant) {
    case 'none':
      return '';
    case 'request':
      return named;
    case 'token':
      return own;
    case 'request-or-token':
    case 'reference':
      if (named !== '' || own !== '' || authority.platformWide) return named || own;
      throw invalidArgument('tenant is required: an app bound to no tenant names the tenant it acts in');
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
