import type { Clock } from '../clock';
import type { RevocationStore } from '../revocation/revocation';
import type { AccessTokenClaims, JwtAccessTokenStrategy } from './access-token';

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

  async validate(token: string): Promise<AccessTokenClaims | null> {
    const claims = await this.accessTokens.verify(token);
    if (!claims) return null;
    return (await this.isRevoked(claims)) ? null : claims;
  }

  async isRevoked(claims: AccessTokenClaims): Promise<boolean> {
    const keys = [
      { kind: 'jti' as const, value: claims.jti },
      { kind: 'client' as const, value: claims.client_id },
      { kind: 'subject' as const, value: claims.sub },
      ...(claims.grant_id ? [{ kind: 'grant' as const, value: claims.grant_id }] : []),
    ];
    const entries = await this.revocations.findActiveRevocations(keys, this.clock.now());
    return entries.some((e) => {
      if (e.kind === 'client' || e.kind === 'subject') return claims.iat * 1000 <= e.createdAt.getTime();
      return true;
    });
  }
}
