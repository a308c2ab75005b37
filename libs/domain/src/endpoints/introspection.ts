import type { Application } from '../application';
import type { ClientAuthenticator } from '../clients/client-authenticator';
import { readClientCredentials } from '../clients/client-credentials';
import type { Clock } from '../clock';
import { OAuthError } from '../errors';
import type { RefreshTokenStore, RevocationStore } from '../storage';
import type { AccessTokenValidator } from '../tokens/token-validator';
import { isCompactJws, refreshTokens } from '../tokens/opaque-token';
import { mayIntrospectAnyToken } from './caller-privileges';

export type IntrospectionResponse =
  | { active: false }
  | {
      active: true;
      client_id: string;
      scope: string;
      sub: string;
      iat: number;
      exp: number;
      iss: string;
      aud: string;
      jti?: string;
      token_type: 'Bearer' | 'refresh_token';
      tenant?: string;
      roles?: string[];
    };

const INACTIVE: IntrospectionResponse = { active: false };

/**
 * RFC 7662. The caller authenticates with its secret; it sees its own tokens, and a resource
 * server (tokens.introspect) or admin app sees any. Everything else is `{active:false}`, so
 * the answer never tells a stranger whether a token exists.
 */
export class TokenIntrospector {
  constructor(
    private readonly authenticator: ClientAuthenticator,
    private readonly accessTokens: AccessTokenValidator,
    private readonly refreshTokens: Pick<RefreshTokenStore, 'findRefreshToken'>,
    private readonly revocations: Pick<RevocationStore, 'findActiveRevocations'>,
    private readonly issuer: string,
    private readonly clock: Clock,
  ) {}

  async introspect(
    params: Record<string, string>,
    authorization: string | undefined,
  ): Promise<IntrospectionResponse> {
    const caller = await this.authenticator.authenticateConfidential(
      readClientCredentials(params, authorization),
    );
    const token = params.token;
    if (!token) throw new OAuthError('invalid_request', 'token is required');

    const claims = isCompactJws(token) ? await this.accessTokens.validate(token) : null;
    if (claims) {
      if (!this.maySee(caller, claims.client_id)) return INACTIVE;
      return {
        active: true,
        client_id: claims.client_id,
        scope: claims.scope,
        sub: claims.sub,
        iat: claims.iat,
        exp: claims.exp,
        iss: claims.iss,
        aud: claims.aud,
        jti: claims.jti,
        token_type: 'Bearer',
        ...(claims.tenant !== undefined && { tenant: claims.tenant, roles: claims.roles }),
      };
    }
    return refreshTokens.accepts(token) ? this.introspectRefreshToken(caller, token) : INACTIVE;
  }

  private async introspectRefreshToken(caller: Application, token: string): Promise<IntrospectionResponse> {
    const record = await this.refreshTokens.findRefreshToken(refreshTokens.hash(token));
    const now = this.clock.now();
    if (!record || record.rotatedAt || record.revokedAt || record.expiresAt <= now) return INACTIVE;
    if (!this.maySee(caller, record.clientId)) return INACTIVE;
    const revoked = await this.revocations.findActiveRevocations(
      [
        { kind: 'grant', value: record.grantId },
        { kind: 'client', value: record.clientId },
      ],
      now,
    );
    if (revoked.some((e) => e.kind === 'grant' || record.createdAt <= e.createdAt)) return INACTIVE;
    return {
      active: true,
      client_id: record.clientId,
      scope: record.scopes.join(' '),
      sub: record.userId,
      iat: Math.floor(record.createdAt.getTime() / 1000),
      exp: Math.floor(record.expiresAt.getTime() / 1000),
      iss: this.issuer,
      aud: this.issuer,
      token_type: 'refresh_token',
    };
  }

  private maySee(caller: Application, tokenClientId: string): boolean {
    return caller.clientId === tokenClientId || mayIntrospectAnyToken(caller);
  }
}
