import { parseScope, type PolicyPrincipal } from '@platform/domain';
import type { PrincipalMessage, TokenClaims } from '@platform/grpc';
import { invalidArgument } from './authorization.error';

/**
 * The principal a validated token acts as: a token with a `tenant` is a forwarded user token
 * (its tenant, roles and scopes); any other is a service token acting as its app.
 */
export function principalOfClaims(claims: TokenClaims): PolicyPrincipal {
  // The validator hands out the same frozen claims object for a token it has seen before: its
  // principal is worked out once. Claims that could still change are never remembered.
  if (!Object.isFrozen(claims)) return toPrincipal(claims);
  let principal = principals.get(claims);
  if (principal === undefined) {
    principal = toPrincipal(claims);
    principals.set(claims, principal);
  }
  return principal;
}

const principals = new WeakMap<TokenClaims, PolicyPrincipal>();

function toPrincipal(claims: TokenClaims): PolicyPrincipal {
  const scopes = parseScope(claims.scope);
  if (claims.tenant) {
    return {
      kind: 'user',
      id: claims.sub,
      clientId: claims.client_id,
      tenant: claims.tenant,
      roles: claims.roles ?? [],
      scopes,
    };
  }
  return { kind: 'service', id: claims.sub, clientId: claims.client_id, scopes };
}

/** The `Principal` message of an Evaluate/DryRun request, checked. */
export function principalOfMessage(message: Partial<PrincipalMessage> | null | undefined): PolicyPrincipal {
  if (!message) throw invalidArgument('principal is required');
  const { kind, id = '', client_id = '', tenant = '', roles = [], scopes = [] } = message;
  if (id === '') throw invalidArgument('principal.id is required');
  if (kind === 'service') return { kind, id, clientId: client_id, scopes: [...scopes] };
  if (kind !== 'user') throw invalidArgument('principal.kind must be user or service');
  if (tenant === '') throw invalidArgument('a user principal needs a tenant');
  return { kind, id, clientId: client_id, tenant, roles: [...roles], scopes: [...scopes] };
}

/**
 * The tenant a call acts in: the one it names, else a user's own; a service token, which acts
 * platform-wide, has to name one (INVALID_ARGUMENT).
 */
export function tenantOfCall(claims: TokenClaims, named: string): string {
  if (named !== '') return named;
  const principal = principalOfClaims(claims);
  if (principal.kind === 'user') return principal.tenant;
  throw invalidArgument('tenant is required for a service token');
}
