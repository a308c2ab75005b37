import type { Actor__Output as Actor } from './generated/platform/auth/v1/Actor';
import type { Confirmation__Output as Confirmation } from './generated/platform/auth/v1/Confirmation';
import type { TokenClaims__Output as TokenClaims } from './generated/platform/auth/v1/TokenClaims';

/** A claim of a verified access token that is missing or of the wrong type; the message names it. */
export class InvalidClaimError extends Error {}

/** The `impersonation` values a token may carry (RFC 8693 tokens we issue); '' on any other token. */
const IMPERSONATION_MODES: readonly string[] = ['full', 'read_only'];

/** Deepest `act` chain accepted: far beyond any real delegation, short of any stack trouble. */
export const MAX_ACTOR_DEPTH = 10;

/**
 * A verified access token's payload as the proto's TokenClaims: the one mapping the sidecar's
 * ValidateToken and the backend's own verification share. `iss`, `aud`, `exp` and `iat` must
 * have been checked by the caller (against the issuer or the expected audience, as numbers);
 * every other claim is checked here and a wrong one throws InvalidClaimError.
 */
export function tokenClaimsOf(payload: Record<string, unknown>): TokenClaims {
  const { iss, sub, aud, exp, iat, jti, client_id, scope, tenant, roles, grant_id, act, impersonation, cnf } =
    payload;
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
  if (impersonation !== undefined && !IMPERSONATION_MODES.includes(impersonation as string)) {
    throw new InvalidClaimError('invalid claim impersonation');
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
    act: act === undefined ? null : actorOf(act, 1),
    impersonation: (impersonation as string | undefined) ?? '',
    cnf: cnf === undefined ? null : confirmationOf(cnf),
  });
}

/**
 * `cnf` (RFC 7800) of a DPoP-bound token: `{jkt}` with the key's thumbprint (RFC 9449 section
 * 6.1). Any other confirmation method is one no validator here can check: refused.
 */
function confirmationOf(value: unknown): Confirmation {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InvalidClaimError('invalid claim cnf');
  }
  const { jkt } = value as Record<string, unknown>;
  if (typeof jkt !== 'string' || jkt === '') throw new InvalidClaimError('invalid claim cnf.jkt');
  return Object.freeze({ jkt });
}

/** One actor of the `act` chain (RFC 8693 section 4.1) and those it nests, checked. */
function actorOf(value: unknown, depth: number): Actor {
  if (depth > MAX_ACTOR_DEPTH) throw new InvalidClaimError('invalid claim act: chain too deep');
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new InvalidClaimError('invalid claim act');
  }
  const { sub, client_id, act } = value as Record<string, unknown>;
  if (typeof sub !== 'string' || sub === '') throw new InvalidClaimError('invalid claim act.sub');
  if (client_id !== undefined && typeof client_id !== 'string') {
    throw new InvalidClaimError('invalid claim act.client_id');
  }
  return Object.freeze({
    sub,
    client_id: client_id ?? '',
    act: act === undefined ? null : actorOf(act, depth + 1),
  });
}
