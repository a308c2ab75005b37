import type { Clock } from '../clock';
import type { TokenRevoker } from '../endpoints/revocation';
import { invalidGrant, OAuthError } from '../errors';
import { parseScope, uncoveredScopes } from '../scopes';
import type { Stores, Transactor } from '../storage';
import type { RefreshTokenRecord } from './refresh-token';
import { describeTokenKind, refreshTokens } from '../tokens/opaque-token';
import { dpopBindingOf, type GrantHandler, type TokenRequest, type TokenResponse } from './grant-handler';
import type { TokenTargets } from './token-target';
import type { UserTokenIssuer } from './user-tokens';

/**
 * RFC 6749 section 6 with rotation (RFC 9700 section 4.14.2): every refresh token works once;
 * the answer carries a new one of the same grant. A refresh token presented a second time
 * revokes the whole grant, because two parties hold it and the server cannot tell which is
 * the thief. That includes the loser of two concurrent refreshes: as the spec's client
 * guidance says, a client refreshes with a single request at a time. Rotation slides the idle
 * window, never the family's absolute lifetime (UserTokenIssuer).
 */
export class RefreshTokenGrant implements GrantHandler {
  readonly grantType = 'refresh_token' as const;
  readonly allowsClientIdOnly = true;

  constructor(
    private readonly transactor: Transactor,
    private readonly revoker: Pick<TokenRevoker, 'revokeGrant'>,
    private readonly issuer: UserTokenIssuer,
    private readonly targets: TokenTargets,
    private readonly clock: Clock,
  ) {}

  async handle(request: TokenRequest): Promise<TokenResponse> {
    const { params, client } = request;
    if (!params.refresh_token) throw new OAuthError('invalid_request', 'refresh_token is required');
    if (!refreshTokens.accepts(params.refresh_token)) {
      throw invalidGrant(`not a refresh token (${describeTokenKind(params.refresh_token)})`);
    }
    const tokenHash = refreshTokens.hash(params.refresh_token);
    // Resolved before the transaction: an unknown resource refuses the request and consumes nothing.
    const audience = await this.targets.resource(params.resource);
    // Refusals are returned rather than thrown so that a revocation they cause commits.
    const outcome = await this.transactor.inTransaction(async (stores) => {
      const now = this.clock.now();
      const token = await stores.refreshTokens.findRefreshToken(tokenHash);
      // Another client's token is refused exactly like an unknown one.
      if (token?.clientId !== client.app.clientId) return invalidGrant('the refresh token is unknown');
      if (token.revokedAt) return invalidGrant('the refresh token was revoked');
      if (token.rotatedAt) return this.reused(stores, token);
      if (token.expiresAt <= now) return invalidGrant('the refresh token has expired');
      // Also checked here, not only in expiresAt: a shortened absolute lifetime applies at once.
      if (this.issuer.familyEnd(token.familyCreatedAt) <= now) {
        return invalidGrant('the refresh token family reached its absolute lifetime');
      }
      const scopes = narrowedScopes(token, params.scope);
      if (scopes instanceof OAuthError) return scopes;
      // A bound family (a public client's, RFC 9449 section 5) refreshes with a proof of its key only.
      if (token.dpopJkt !== undefined) {
        if (request.dpop === undefined) {
          return new OAuthError('invalid_dpop_proof', 'this refresh token is DPoP-bound: send a DPoP proof');
        }
        if (request.dpop.jkt !== token.dpopJkt) return invalidGrant('the DPoP proof is of another key');
      }
      // The conditional update decides a race the read above could not see.
      if (!(await stores.refreshTokens.markRefreshTokenRotated(tokenHash, now))) {
        return this.reused(stores, token);
      }
      const user = await stores.users.findUser(token.userId);
      if (!user) return invalidGrant('the user of the refresh token no longer exists');
      await stores.tokenEvents.appendTokenEvents([
        {
          type: 'refresh_token.rotated',
          clientId: token.clientId,
          subject: token.userId,
          jti: null,
          grantId: token.grantId,
          occurredAt: now,
          tenant: user.tenant,
        },
      ]);
      return this.issuer.issue(stores, {
        grantId: token.grantId,
        clientId: token.clientId,
        user,
        scopes,
        grantedScopes: token.scopes,
        familyCreatedAt: token.familyCreatedAt,
        ...(audience !== undefined && { audience }),
        // The ID token of a refresh keeps the original login's auth_time and sid (Core 12.2).
        ...(token.session && { session: token.session }),
        ...dpopBindingOf(request),
      });
    });
    if (outcome instanceof OAuthError) throw outcome;
    return outcome;
  }

  private async reused(stores: Stores, token: RefreshTokenRecord): Promise<OAuthError> {
    await this.revoker.revokeGrant(stores, token.grantId, token.clientId, token.userId);
    return invalidGrant('the refresh token was already used; its grant is revoked');
  }
}

/** RFC 6749 section 6: the scope may only narrow what the user granted; omitted keeps it all. */
function narrowedScopes(token: RefreshTokenRecord, scope: string | undefined): string[] | OAuthError {
  const requested = parseScope(scope);
  if (requested.length === 0) return token.scopes;
  const refused = uncoveredScopes(token.scopes, requested);
  if (refused.length > 0) {
    return new OAuthError('invalid_scope', `scope beyond the original grant: ${refused.join(' ')}`);
  }
  return requested;
}
