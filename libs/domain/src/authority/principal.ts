import { parseScope } from '../scopes';
import type { PolicyPrincipal } from '../policy/policy';

/** The claims of a validated access token that say who is calling (every validator has them). */
export interface PrincipalClaims {
  sub: string;
  client_id: string;
  scope?: string;
  /** A user's tenant, or the tenant a bound service app acts in. */
  tenant?: string;
  roles?: readonly string[];
  /** Set on user tokens only: every user token belongs to a grant (its refresh family). */
  grant_id?: string;
  /** Set on impersonation tokens only: `read_only` confines them to `*.read` actions. */
  impersonation?: string;
}

/**
 * Who a token acts as (docs/authorization.md, "Principals"). A token issued through a user's
 * grant (it carries `grant_id`) is that user's, in its tenant with its roles; any other is its
 * app acting as itself, bound to the app's tenant when the app is.
 */
export function principalOfClaims(claims: PrincipalClaims): PolicyPrincipal {
  const scopes = parseScope(claims.scope);
  const tenant = claims.tenant ?? '';
  if ((claims.grant_id ?? '') !== '') {
    return {
      kind: 'user',
      id: claims.sub,
      clientId: claims.client_id,
      tenant,
      roles: [...(claims.roles ?? [])],
      scopes,
      ...(claims.impersonation === 'read_only' && { readOnly: true as const }),
    };
  }
  return tenant === ''
    ? { kind: 'service', id: claims.sub, clientId: claims.client_id, scopes }
    : { kind: 'service', id: claims.sub, clientId: claims.client_id, scopes, tenant };
}

/**
 * Who acts, as the backend authorized them and the control plane reads them back: a user (with
 * their tenant and roles) or a service token acting as its app (its tenant when it is bound,
 * no roles; its scopes decide).
 */
export interface ActingPrincipal {
  kind: 'user' | 'service';
  /** The user id, or the client_id for a service. */
  id: string;
  clientId: string;
  tenant: string | null;
  roles: string[];
  scopes: string[];
  /** Who acts for it (the current actor of an exchanged or impersonation token): audited beside it. */
  actedBy?: string;
}

/** The same principal as the decision takes it. */
export function policyPrincipalOf(principal: ActingPrincipal): PolicyPrincipal {
  const { kind, id, clientId, tenant, roles, scopes } = principal;
  if (kind === 'user') return { kind, id, clientId, tenant: tenant ?? '', roles, scopes };
  return tenant === null ? { kind, id, clientId, scopes } : { kind, id, clientId, scopes, tenant };
}
