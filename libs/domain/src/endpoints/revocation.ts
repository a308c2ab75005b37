import type { Application } from '../registry/application';
import type { ClientAuthenticator } from '../clients/client-authenticator';
import { readClientCredentials } from '../clients/client-credentials';
import type { Clock } from '../clock';
import { OAuthError } from '../errors';
import type { Stores, Transactor } from '../storage';
import type { AccessTokenClaims, JwtAccessTokenStrategy } from '../tokens/access-token';
import { isCompactJws, refreshTokens } from '../tokens/opaque-token';
import { isAdminApp } from './caller-privileges';

/**
 * RFC 7009. Unknown, expired and already revoked tokens all answer success. A client may
 * revoke only its own tokens unless it is an admin app (fosite answers unauthorized_client
 * too). Revoking a refresh token revokes its whole grant, access tokens included.
 */
export class TokenRevoker {
  constructor(
    private readonly authenticator: ClientAuthenticator,
    private readonly accessTokens: JwtAccessTokenStrategy,
    private readonly transactor: Transactor,
    private readonly accessTokenLifetimeSeconds: number,
    private readonly clock: Clock,
  ) {}

  async revoke(params: Record<string, string>, authorization: string | undefined): Promise<void> {
    const caller = await this.authenticator.authenticateOwnSecretOrPublic(
      readClientCredentials(params, authorization),
    );
    const token = params.token;
    if (!token) throw new OAuthError('invalid_request', 'token is required');

    const claims = isCompactJws(token) ? await this.accessTokens.verify(token, { allowExpired: true }) : null;
    if (claims) {
      this.assertOwner(caller, claims.client_id);
      await this.revokeAccessToken(claims);
      return;
    }
    // Codes, sessions and unreadable values: nothing this endpoint revokes, and RFC 7009 answers alike.
    if (!refreshTokens.accepts(token)) return;
    await this.transactor.inTransaction(async (stores) => {
      const record = await stores.refreshTokens.findRefreshToken(refreshTokens.hash(token));
      if (!record) return;
      this.assertOwner(caller, record.clientId);
      await this.revokeGrant(stores, record.grantId, record.clientId, record.userId);
    });
  }

  /** For callers the platform already trusts (the sidecar's RevokeToken): no ownership check. */
  async revokeTrusted(token: string): Promise<boolean> {
    const claims = await this.accessTokens.verify(token, { allowExpired: true });
    if (!claims) return false;
    await this.revokeAccessToken(claims);
    return true;
  }

  /** Revokes every token of a grant: its refresh tokens and, through the deny-list, its access tokens. */
  async revokeGrant(
    stores: Stores,
    grantId: string,
    clientId: string,
    subject: string | null,
  ): Promise<void> {
    await this.revokeGrants(stores, [{ grantId, clientId, subject }]);
  }

  /**
   * `revokeGrant` for several grants in one transaction: every refresh-token row first, then the
   * feeds (deny-list, token events), so the feeds' locks are taken after the row writes
   * (libs/persistence feed-order.ts).
   */
  async revokeGrants(
    stores: Stores,
    grants: ReadonlyArray<{ grantId: string; clientId: string; subject: string | null }>,
  ): Promise<void> {
    if (grants.length === 0) return;
    const now = this.clock.now();
    for (const { grantId } of grants) await stores.refreshTokens.revokeRefreshTokenFamily(grantId, now);
    const expiresAt = this.accessTokenHorizon(now);
    await stores.revocations.addRevocations(
      grants.map(({ grantId }) => ({ kind: 'grant' as const, value: grantId, expiresAt })),
      now,
    );
    await stores.tokenEvents.appendTokenEvents(
      grants.map(({ grantId, clientId, subject }) => ({
        type: 'grant.revoked' as const,
        clientId,
        subject,
        jti: null,
        grantId,
        occurredAt: now,
      })),
    );
  }

  private async revokeAccessToken(claims: AccessTokenClaims): Promise<void> {
    const now = this.clock.now();
    if (claims.exp * 1000 <= now.getTime()) return; // expired: nothing left to deny
    await this.transactor.inTransaction(async (stores) => {
      await stores.revocations.addRevocations(
        [{ kind: 'jti', value: claims.jti, expiresAt: new Date(claims.exp * 1000) }],
        now,
      );
      await stores.tokenEvents.appendTokenEvents([
        {
          type: 'token.revoked',
          clientId: claims.client_id,
          subject: claims.sub,
          jti: claims.jti,
          grantId: claims.grant_id ?? null,
          occurredAt: now,
          tenant: claims.tenant ?? null,
        },
      ]);
    });
  }

  private assertOwner(caller: Application, tokenClientId: string): void {
    if (caller.clientId !== tokenClientId && !isAdminApp(caller)) {
      throw new OAuthError('unauthorized_client', 'the token was not issued to this client');
    }
  }

  /** No access token issued before now outlives this instant. */
  private accessTokenHorizon(now: Date): Date {
    return new Date(now.getTime() + this.accessTokenLifetimeSeconds * 1000);
  }
}
