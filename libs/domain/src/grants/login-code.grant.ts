import { appMayUseGrant } from '../application';
import type { Clock } from '../clock';
import type { TokenRevoker } from '../endpoints/revocation';
import { invalidGrant, OAuthError } from '../errors';
import type { ApplicationStore, RefreshTokenStore, Transactor } from '../storage';
import { describeTokenKind, loginCodes, refreshTokens } from '../tokens/opaque-token';
import type { TokenResponse } from './grant-handler';
import type { RefreshTokenGrant } from './refresh-token.grant';
import type { UserTokenIssuer } from './user-tokens';

/**
 * The app login's code exchange (`POST /api/v1/auth/exchange`): a login code, once, for the
 * user's tokens for the app it was issued to, with every scope the app declared. The tokens are
 * those of a user grant (UserTokenIssuer), so refresh rotation and family revocation apply
 * unchanged. The code is the only credential: the app holds no secret in this model, and the
 * code is bound to the app and its callback at issue.
 */
export class LoginCodeGrant {
  constructor(
    private readonly transactor: Transactor,
    private readonly revoker: Pick<TokenRevoker, 'revokeGrant'>,
    private readonly issuer: UserTokenIssuer,
    private readonly clock: Clock,
  ) {}

  async exchange(code: string | undefined): Promise<TokenResponse> {
    if (!code) throw new OAuthError('invalid_request', 'code is required');
    if (!loginCodes.accepts(code)) throw invalidGrant(`not a login code (${describeTokenKind(code)})`);
    const codeHash = loginCodes.hash(code);
    // As for authorization codes: refusals are returned so that what they record commits.
    const outcome = await this.transactor.inTransaction(async (stores) => {
      const now = this.clock.now();
      const record = await stores.authorizationCodes.consumeAuthorizationCode(codeHash, now);
      if (!record) return invalidGrant('the code is unknown');
      // Integrity, not the kind (the prefix says that): a login code carries no PKCE challenge,
      // a consent code does, and this also holds for codes issued before prefixes.
      if (record.codeChallengeMethod !== 'login-code')
        return invalidGrant('a consent code, not a login code');
      if (record.consumedAt) {
        await this.revoker.revokeGrant(stores, record.grantId, record.clientId, record.userId);
        return invalidGrant('the code was already used');
      }
      if (record.expiresAt <= now) return invalidGrant('the code has expired');
      const app = await stores.applications.findApplication(record.clientId);
      if (!app) return invalidGrant('the application of the code no longer exists');
      const user = await stores.users.findUser(record.userId);
      if (!user) return invalidGrant('the user of the code no longer exists');
      return this.issuer.issue(stores, {
        grantId: record.grantId,
        clientId: record.clientId,
        user,
        scopes: record.scopes,
        grantedScopes: record.scopes,
      });
    });
    if (outcome instanceof OAuthError) throw outcome;
    return outcome;
  }
}

/**
 * `POST /api/v1/auth/refresh`: the refresh_token grant for an app that holds no secret. The
 * refresh token names its app; the grant's own rules (rotation, reuse revokes the family,
 * expiry) decide the rest.
 */
export class AppTokenRefresher {
  constructor(
    private readonly refreshTokens: Pick<RefreshTokenStore, 'findRefreshToken'>,
    private readonly applications: Pick<ApplicationStore, 'findApplication'>,
    private readonly grant: Pick<RefreshTokenGrant, 'handle'>,
  ) {}

  async refresh(refreshToken: string | undefined): Promise<TokenResponse> {
    if (!refreshToken) throw new OAuthError('invalid_request', 'refreshToken is required');
    const record = refreshTokens.accepts(refreshToken)
      ? await this.refreshTokens.findRefreshToken(refreshTokens.hash(refreshToken))
      : null;
    const app = record ? await this.applications.findApplication(record.clientId) : null;
    if (!app || !appMayUseGrant(app.appType, 'refresh_token')) {
      throw invalidGrant('the refresh token is unknown');
    }
    return this.grant.handle({
      params: { grant_type: 'refresh_token', refresh_token: refreshToken },
      client: { app, authenticatedWithSecret: false },
    });
  }
}
