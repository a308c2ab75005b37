import { verifyS256CodeVerifier } from '../authorization/pkce';
import type { Clock } from '../clock';
import type { TokenRevoker } from '../endpoints/revocation';
import { invalidGrant, OAuthError } from '../errors';
import type { Stores, Transactor } from '../storage';
import type { AuthorizationCodeRecord } from './authorization-code';
import { describeTokenKind, authorizationCodes } from '../tokens/opaque-token';
import { dpopBindingOf, type GrantHandler, type TokenRequest, type TokenResponse } from './grant-handler';
import type { TokenTargets } from './token-target';
import type { UserTokenIssuer } from './user-tokens';

/**
 * RFC 6749 section 4.1.3 with RFC 7636: exchanges a code, once, for the user's tokens. The
 * code_verifier proves possession, so a client may present only its client_id (a client that
 * sends a secret must send the right one: the token endpoint checks that).
 */
export class AuthorizationCodeGrant implements GrantHandler {
  readonly grantType = 'authorization_code' as const;
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
    if (!params.code) throw new OAuthError('invalid_request', 'code is required');
    if (!authorizationCodes.accepts(params.code)) {
      throw invalidGrant(`not an authorization code (${describeTokenKind(params.code)})`);
    }
    const codeHash = authorizationCodes.hash(params.code);
    // Resolved before the transaction: an unknown resource refuses the request and consumes nothing.
    const audience = await this.targets.resource(params.resource);
    // The code is consumed and the tokens stored in one transaction: a concurrent replay waits
    // for it on the code's row, then finds the code consumed and revokes what this one issued.
    // Refusals are returned rather than thrown so that what they record (the consumption, a
    // revocation) commits.
    const outcome = await this.transactor.inTransaction(async (stores) => {
      const now = this.clock.now();
      const code = await stores.authorizationCodes.consumeAuthorizationCode(codeHash, now);
      if (!code) return invalidGrant('the code is unknown');
      if (code.consumedAt) {
        // RFC 6749 section 4.1.2: a replayed code revokes what was issued from it.
        await this.revoker.revokeGrant(stores, code.grantId, code.clientId, code.userId);
        return invalidGrant('the code was already used');
      }
      const refusal = this.refusal(code, params, client.app.clientId, now);
      if (refusal) return refusal;
      return this.issue(stores, code, audience, dpopBindingOf(request));
    });
    if (outcome instanceof OAuthError) throw outcome;
    return outcome;
  }

  /** Why the exchange is refused (RFC 6749 section 4.1.3, RFC 7636 section 4.6), or null. */
  private refusal(
    code: AuthorizationCodeRecord,
    params: TokenRequest['params'],
    clientId: string,
    now: Date,
  ): OAuthError | null {
    // A login code of the app login is redeemed at /api/v1/auth/exchange only.
    if (code.codeChallengeMethod !== 'S256') return invalidGrant('the code is unknown');
    if (code.expiresAt <= now) return invalidGrant('the code has expired');
    if (code.clientId !== clientId) return invalidGrant('the code was issued to another client');
    if (params.redirect_uri !== code.redirectUri) {
      return invalidGrant('redirect_uri does not match the authorization request');
    }
    if (!params.code_verifier) return new OAuthError('invalid_request', 'code_verifier is required (PKCE)');
    if (!verifyS256CodeVerifier(params.code_verifier, code.codeChallenge)) {
      return invalidGrant('code_verifier does not match the code_challenge');
    }
    return null;
  }

  private async issue(
    stores: Stores,
    code: AuthorizationCodeRecord,
    audience: string | undefined,
    binding: ReturnType<typeof dpopBindingOf>,
  ): Promise<TokenResponse | OAuthError> {
    const user = await stores.users.findUser(code.userId);
    if (!user) return invalidGrant('the user of the code no longer exists');
    return this.issuer.issue(stores, {
      grantId: code.grantId,
      clientId: code.clientId,
      user,
      scopes: code.scopes,
      grantedScopes: code.scopes,
      ...(audience !== undefined && { audience }),
      ...(code.session && { session: code.session }),
      ...(code.nonce !== undefined && { nonce: code.nonce }),
      ...binding,
    });
  }
}
