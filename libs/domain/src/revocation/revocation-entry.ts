import type { Revocation, RevocationKind } from './revocation';

/** An entry of the internal revocation feed (docs/internal-api.md); times in Unix seconds. */
export interface RevocationEntry {
  seq: number;
  kind: RevocationKind;
  value: string;
  expires_at: number;
  created_at: number;
}

export function toRevocationEntry(revocation: Revocation): RevocationEntry {
  return {
    seq: revocation.seq,
    kind: revocation.kind,
    value: revocation.value,
    expires_at: Math.floor(revocation.expiresAt.getTime() / 1000),
    created_at: Math.floor(revocation.createdAt.getTime() / 1000),
  };
}

/**
 * An actor of a token's `act` chain (RFC 8693 section 4.1): the outermost is the current actor,
 * `act` the earlier ones (null or absent at the end, as the proto and the JWT say it).
 */
export interface RevocableActor {
  sub: string;
  act?: RevocableActor | null;
}

/** What a deny-list entry is judged against: an access token's claims. */
export interface RevocableClaims {
  jti: string;
  client_id: string;
  /** The user (absent or the client for service tokens: no user entry names a client). */
  sub?: string;
  /** Unix seconds. */
  iat: number;
  /** Empty or absent for service tokens, which belong to no grant. */
  grant_id?: string;
  /** Who acts for `sub` (exchanged and impersonation tokens): each actor's deprovisioning denies it too. */
  act?: RevocableActor | null;
}

/** Whether `sub` is one of the actors of the chain. */
function actsIn(chain: RevocableActor | null | undefined, sub: string): boolean {
  for (let actor = chain; actor; actor = actor.act) if (actor.sub === sub) return true;
  return false;
}

/**
 * Whether `entry` denies the token: its own jti, its grant, its client deleted or its user (or
 * any actor of its `act` chain: an impersonator, a delegating user) deprovisioned at or after
 * the token was issued. A kind this code does not know denies, so a newer control plane can
 * never make an older reader accept a revoked token.
 */
export function revocationDenies(
  entry: { kind: string; value: string; created_at: number },
  claims: RevocableClaims,
): boolean {
  switch (entry.kind) {
    case 'jti':
      return claims.jti === entry.value;
    case 'client':
      return claims.client_id === entry.value && claims.iat <= entry.created_at;
    case 'subject':
      return (
        (claims.sub === entry.value || actsIn(claims.act, entry.value)) && claims.iat <= entry.created_at
      );
    case 'grant':
      return claims.grant_id !== undefined && claims.grant_id !== '' && claims.grant_id === entry.value;
    case 'secret':
    case 'signing_key':
      return false;
    default:
      return true;
  }
}
