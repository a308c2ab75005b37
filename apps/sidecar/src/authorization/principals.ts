import { principalOfClaims as principalOf, type PolicyPrincipal } from '@platform/domain';
import type { PrincipalMessage, TokenClaims } from '@platform/grpc';
import { invalidArgument } from './authorization.error';

/** The principal a validated token acts as (the domain's `principalOfClaims`), worked out once. */
export function principalOfClaims(claims: TokenClaims): PolicyPrincipal {
  // The validator hands out the same frozen claims object for a token it has seen before: its
  // principal is worked out once. Claims that could still change are never remembered.
  if (!Object.isFrozen(claims)) return principalOf(claims);
  let principal = principals.get(claims);
  if (principal === undefined) {
    principal = principalOf(claims);
    principals.set(claims, principal);
  }
  return principal;
}

const principals = new WeakMap<TokenClaims, PolicyPrincipal>();

/** The `Principal` message of an Evaluate/DryRun request, checked. */
export function principalOfMessage(message: Partial<PrincipalMessage> | null | undefined): PolicyPrincipal {
  if (!message) throw invalidArgument('principal is required');
  const { kind, id = '', client_id = '', tenant = '', roles = [], scopes = [] } = message;
  if (id === '') throw invalidArgument('principal.id is required');
  if (kind === 'service') {
    return tenant === ''
      ? { kind, id, clientId: client_id, scopes: [...scopes] }
      : { kind, id, clientId: client_id, scopes: [...scopes], tenant };
  }
  if (kind !== 'user') throw invalidArgument('principal.kind must be user or service');
  if (tenant === '') throw invalidArgument('a user principal needs a tenant');
  return { kind, id, clientId: client_id, tenant, roles: [...roles], scopes: [...scopes] };
}
