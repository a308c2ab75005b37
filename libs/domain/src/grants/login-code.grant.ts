import { appMayUseGrant } from '../registry/application';
import { verifyS256CodeVerifier } from '../authorization/pkce';
import type { ClientAuthenticator } from '../clients/client-authenticator';
import { readClientCredentials } from '../clients/client-credentials';
import type { Clock } from '../clock';
import type { TokenRevoker } from '../endpoints/revocation';
import { invalidGrant, OAuthError } from '../errors';
import type { Transactor } from '../storage';
import { describeTokenKind, loginCodes } from '../tokens/opaque-token';
import type { TokenResponse } from './grant-handler';
import type { RefreshTokenGrant } from './refresh-token.grant';
import type { UserTokenIssuer } from './user-tokens';

/**
 * The app's credentials at the exchange and the refresh, as at the token endpoint: `client_id`
 * always, with the secret (in the body or as Basic) of an app that holds one.
 */
export interface AppClientParams {
  client_id?: string;
  client_secret?: string;
}

type Authenticator = Pick<ClientAuthenticator, 'authenticateOwnSecretOrPublic'>;

/** The app, authenticated by the token endpoint's rule for clients with and without a secret. */
const authenticatedApp = (
  authenticator: Authenticator,
  { client_id, client_secret }: AppClientParams,
  authorization: string | undefined,
) =>
  authenticator.authenticateOwnSecretOrPublic(
    readClientCredentials({ client_id, client_secret }, authorization),
  );

/**
 * The app login's code exchange (`POST /api/v1/auth/exchange`): a login code, once, for the
 * user's tokens for the app it was issued to, with every scope the app declared. As for an
 * authorization code (RFC 6749 4.1.3, RFC 7636): the app identifies itself, an app holding a
 * secret authenticates with it, and the code_verifier must match the challenge the login
 * started with. The tokens are those of a user grant (UserTokenIssuer), so refresh rotation and
 * family revocation apply unchanged.
 */
export class LoginCodeGrant {
  constructor(
    private readonly authenticator: Authenticator,
    private readonly transactor: Transactor,
    private readonly revoker: Pick<TokenRevoker, 'revokeGrant'>,
    private readonly issuer: UserTokenIssuer,
    private readonly clock: Clock,
  ) {}

  async exchange(
    params: AppClientParams & { code?: string; code_verifier?: string },
    authorization: string | undefined,
  ): Promise<TokenResponse> {
    // Before the code is looked up: a wrong secret does not burn the app's code.
    const app = await authenticatedApp(this.authenticator, params, authorization);
    const { code, code_verifier: verifier } = params;
    if (!code) throw new OAuthError('invalid_request', 'code is required');
    if (!verifier) throw new OAuthError('invalid_request', 'code_verifier is required (PKCE)');
    if (!loginCodes.accepts(code)) throw invalidGrant(`not a login code (${describeTokenKind(code)})`);
    const codeHash = loginCodes.hash(code);
    // As for authorization codes: refusals are returned so that what they record commits.
    const outcome = await this.transactor.inTransaction(async (stores) => {
      const now = this.clock.now();
      const record = await stores.authorizationCodes.consumeAuthorizationCode(codeHash, now);
      if (!record) return invalidGrant('the code is unknown');
      // Integrity, not the kind (the prefix says that), also for codes issued before prefixes.
      if (record.codeChallengeMethod !== 'login-code')
        return invalidGrant('a consent code, not a login code');
      if (record.consumedAt) {
        await this.revoker.revokeGrant(stores, record.grantId, record.clientId, record.userId);
        return invalidGrant('the code was already used');
      }
      if (record.expiresAt <= now) return invalidGrant('the code has expired');
      if (record.clientId !== app.clientId) return invalidGrant('the code was issued to another client');
      if (!verifyS256CodeVerifier(verifier, record.codeChallenge)) {
        return invalidGrant('code_verifier does not match the code_challenge');
      }
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
 * `POST /api/v1/auth/refresh`: the refresh_token grant of the app login. The app identifies
 * itself as at the token endpoint (its secret when it holds one); the grant's own rules
 * (the token must be this app's, rotation, reuse revokes the family, expiry) decide the rest.
 */
export class AppTokenRefresher {
  constructor(
    private readonly authenticator: Authenticator,
    private readonly grant: Pick<RefreshTokenGrant, 'handle'>,
  ) {}

  async refresh(
    params: AppClientParams & { refresh_token?: string },
    authorization: string | undefined,
  ): Promise<TokenResponse> {
    const app = await authenticatedApp(this.authenticator, params, authorization);
    if (!appMayUseGrant(app.appType, 'refresh_token')) {
      throw new OAuthError('unauthorized_client', `a ${app.appType} app may not use refresh_token`);
    }
    if (!params.refresh_token) throw new OAuthError('invalid_request', 'refreshToken is required');
    return this.grant.handle({
      params: { grant_type: 'refresh_token', refresh_token: params.refresh_token },
      // authenticateOwnSecretOrPublic passes an app holding a secret only with that secret.
      client: { app, authenticatedWithSecret: app.secretHash !== null },
    });
  }
}
