import type { TokenClaims__Output as TokenClaims } from './generated/platform/auth/v1/TokenClaims';

/** A claim of a verified access token that is missing or of the wrong type; the message names it. */
export class InvalidClaimError extends Error {}

/**
 * A verified access token's payload as the proto's TokenClaims: the one mapping the sidecar's
 * ValidateToken and the backend's own verification share. `iss`, `aud`, `exp` and `iat` must
 * have been checked by the caller (against the issuer, as numbers); every other claim is
 * checked here and a wrong one throws InvalidClaimError.
 */
export function tokenClaimsOf(payload: Record<string, unknown>): TokenClaims {
  const { iss, sub, aud, exp, iat, jti, client_id, scope, tenant, roles, grant_id } = payload;
  if (typeof sub !== 'string' || sub === '') throw new InvalidClaimError('invalid claim sub');
  if (typeof jti !== 'string' || jti === '') throw new InvalidClaimError('invalid claim jti');
  if (typeof client_id !== 'string' || client_id === '')
    throw new InvalidClaimError('invalid claim client_id');
  if (scope !== undefined && typeof scope !== 'string') throw new InvalidClaimError('invalid claim scope');
  if (tenant !== undefined && typeof tenant !== 'string') throw new InvalidClaimError('invalid claim tenant');
  if (grant_id !== undefined && typeof grant_id !== 'string')
    throw new InvalidClaimError('invalid claim grant_id');
  if (roles !== undefined && !(Array.isArray(roles) && roles.every((role) => typeof role === 'string'))) {
    throw new InvalidClaimError('invalid claim roles');
  }
  return Object.freeze({
    iss: iss as string,
    sub,
    aud: typeof aud === 'string' ? aud : (iss as string),
    exp: exp as number,
    iat: iat as number,
    jti,
    client_id,
    scope: scope ?? '',
    tenant: tenant ?? '',
    roles: Object.freeze((roles as string[] | undefined) ?? []) as string[],
    grant_id: grant_id ?? '',
  });
}
