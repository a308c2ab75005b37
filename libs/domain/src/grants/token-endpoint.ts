import { appMayUseGrant } from '../registry/application';
import { presentedOwnCredentials, type ClientAuthenticator } from '../clients/client-authenticator';
import { readClientCredentials } from '../clients/client-credentials';
import { OAuthError } from '../errors';
import { DpopProofError, type DpopProofVerifier, type VerifiedDpopProof } from '../tokens/dpop';
import { PLATFORM_METERS, type UsageMeter } from '../plans/usage-meter';
import type { GrantHandler, TokenResponse } from './grant-handler';

/** The DPoP proof of a token request (RFC 9449 section 5) and the URL it was sent to. */
export interface TokenRequestProof {
  /** The `DPoP` header's value; absent when the client sent none. */
  proof?: string;
  /** The token endpoint's URL as the client addressed it (the proof's `htu`). */
  url: string;
}

/**
 * RFC 6749 section 3.2. Finds the handler for the grant type, authenticates the client the
 * way that grant allows (a client holding a secret always with it, section 3.2.1), enforces the
 * app_type table, then hands over.
 */
export class TokenEndpoint {
  constructor(
    private readonly handlers: readonly GrantHandler[],
    private readonly authenticator: ClientAuthenticator,
    private readonly dpop?: DpopProofVerifier,
    /** Counts each token issued to an app bound to a tenant against its `tokens_issued` quota. */
    private readonly meter?: UsageMeter,
  ) {}

  async handle(
    params: Record<string, string>,
    authorization: string | undefined,
    proof?: TokenRequestProof,
  ): Promise<TokenResponse> {
    const grantType = params.grant_type;
    if (!grantType) throw new OAuthError('invalid_request', 'grant_type is required');
    const handler = this.handlers.find((h) => h.grantType === grantType);
    if (!handler) throw new OAuthError('unsupported_grant_type', `grant_type ${grantType} is not supported`);

    const client = handler.clientOf
      ? await handler.clientOf(params)
      : await this.authenticator.authenticate(readClientCredentials(params, authorization));
    // A confidential client always with its secret; a public one by client_id where the grant allows.
    if (
      !presentedOwnCredentials(client) ||
      (!client.authenticatedWithSecret && !handler.allowsClientIdOnly)
    ) {
      throw new OAuthError('invalid_client', 'client authentication failed');
    }
    if (!appMayUseGrant(client.app.appType, handler.grantType)) {
      throw new OAuthError('unauthorized_client', `a ${client.app.appType} app may not use ${grantType}`);
    }
    const dpop = this.verifiedProof(proof);
    if (dpop === undefined && client.app.dpopBoundAccessTokens === true) {
      throw new OAuthError('invalid_dpop_proof', 'this client must send a DPoP proof');
    }
    const response = await this.metered(client.app.tenant, () =>
      handler.handle({ params, client, ...(dpop && { dpop }) }),
    );
    // Each grant binds what it issues (`confirmationOf`); one that does not must not pass as bound.
    if (dpop !== undefined && response.token_type !== 'DPoP') {
      throw new OAuthError('invalid_dpop_proof', `DPoP is not supported with ${grantType}`);
    }
    return response;
  }

  /** Takes a unit of the tenant's quota first, and gives it back when the grant refuses. */
  private async metered<T>(tenant: string | null, issue: () => Promise<T>): Promise<T> {
    if (this.meter === undefined || tenant === null) return issue();
    const giveBack = await this.meter.take(tenant, PLATFORM_METERS.tokensIssued);
    try {
      return await issue();
    } catch (error) {
      await giveBack();
      throw error;
    }
  }

  /** The server nonce to hand out with every answer (`DPoP-Nonce`), when nonces are required. */
  dpopNonce(): string | undefined {
    return this.dpop?.currentNonce();
  }

  /** RFC 9449 section 4.3 at the token endpoint (`htm` POST, `htu` this endpoint), before any grant work. */
  private verifiedProof(proof: TokenRequestProof | undefined): VerifiedDpopProof | undefined {
    if (proof?.proof === undefined) return undefined;
    if (this.dpop === undefined) throw new OAuthError('invalid_dpop_proof', 'DPoP is not supported here');
    try {
      return this.dpop.verify({ proof: proof.proof, method: 'POST', url: proof.url });
    } catch (error) {
      if (!(error instanceof DpopProofError)) throw error;
      throw new OAuthError(error.code, error.description, undefined, error.nonce);
    }
  }
}
