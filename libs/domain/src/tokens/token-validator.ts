import type { Clock } from '../clock';
import type { RevocationStore } from '../revocation/revocation';
import type { AccessTokenClaims, ActorClaim, JwtAccessTokenStrategy } from './access-token';

/**
 * Signature and expiry, then the deny-list: the token itself, its app's deletion, its user's
 * deprovisioning and its grant's revocation. The control plane's counterpart of the sidecar's ValidateToken.
 */
export class AccessTokenValidator {
  constructor(
    private readonly accessTokens: JwtAccessTokenStrategy,
    private readonly revocations: Pick<RevocationStore, 'findActiveRevocations'>,
    private readonly clock: Clock,
  ) {}

  /**
   * A token for the platform's own API (`aud` = the issuer); `anyAudience` also takes a token
   * asked for one resource (RFC 8707), for introspection and token exchange, which serve them.
   */
  async validate(token: string, options: { anyAudience?: boolean } = {}): Promise<AccessTokenClaims | null> {
    const claims = await this.accessTokens.verify(token);
    if (!claims) return null;
    if (!options.anyAudience && claims.aud !== this.accessTokens.issuer) return null;
    return (await this.isRevoked(claims)) ? null : claims;
  }

  async isRevoked(claims: AccessTokenClaims): Promise<boolean> {
    const keys = [
      { kind: 'jti' as const, value: claims.jti },
      { kind: 'client' as const, value: claims.client_id },
      { kind: 'subject' as const, value: claims.sub },
      ...(claims.grant_id ? [{ kind: 'grant' as const, value: claims.grant_id }] : []),
      // An actor deprovisioned denies what was issued in its name (an impersonator, a delegating user).
      ...actorsOf(claims.act).map((sub) => ({ kind: 'subject' as const, value: sub })),
    ];
    const entries = await this.revocations.findActiveRevocations(keys, this.clock.now());
    return entries.some((e) => {
      if (e.kind === 'client' || e.kind === 'subject') return claims.iat * 1000 <= e.createdAt.getTime();
      return true;
    });
  }
}

/** The subjects of an actor chain, the current actor first. */
export function actorsOf(act: ActorClaim | undefined): string[] {
  const subjects: string[] = [];
  for (let actor = act; actor !== undefined; actor = actor.act) subjects.push(actor.sub);
  return subjects;
}
