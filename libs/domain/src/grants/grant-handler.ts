import type { GrantType } from '../registry/application';
import type { AuthenticatedClient } from '../clients/client-authenticator';
import type { DpopConfirmation, VerifiedDpopProof } from '../tokens/dpop';

export interface TokenResponse {
  access_token: string;
  /** `DPoP` when the access token is bound to the proof's key (RFC 9449 section 5). */
  token_type: 'Bearer' | 'DPoP';
  expires_in: number;
  scope: string;
  refresh_token?: string;
  /** OpenID Connect: for a user grant whose scope holds `openid` (docs/openid-connect.md). */
  id_token?: string;
  /** RFC 8693 section 2.2.1: token exchange answers what it issued. */
  issued_token_type?: string;
}

export interface TokenRequest {
  params: Readonly<Record<string, string>>;
  client: AuthenticatedClient;
  /**
   * The request's verified DPoP proof (RFC 9449), checked by the token endpoint: the access
   * token is bound to its key (`confirmation`), and so is a public client's refresh token.
   */
  dpop?: VerifiedDpopProof;
}

/** RFC 9449 section 5: a token bound to a DPoP key is answered as `DPoP`, any other as `Bearer`. */
export function tokenTypeOf(confirmation: DpopConfirmation | undefined): TokenResponse['token_type'] {
  return confirmation === undefined ? 'Bearer' : 'DPoP';
}

/** The `confirmation` of the access token a request asks for: its DPoP key, when it sent a proof. */
export function confirmationOf(request: Pick<TokenRequest, 'dpop'>): { confirmation?: DpopConfirmation } {
  return request.dpop === undefined ? {} : { confirmation: { jkt: request.dpop.jkt } };
}

/**
 * The DPoP binding of a user grant's step: the access token to the proof's key, and the refresh
 * token too when the client is public (no secret: the key is all that ties the refresh token to
 * it, RFC 9449 section 5); a confidential client's refresh token stays bound to its secret.
 */
export function dpopBindingOf(request: Pick<TokenRequest, 'dpop' | 'client'>): {
  confirmation?: DpopConfirmation;
  refreshBoundTo?: string;
} {
  if (request.dpop === undefined) return {};
  const { jkt } = request.dpop;
  return request.client.app.secretHash === null
    ? { confirmation: { jkt }, refreshBoundTo: jkt }
    : { confirmation: { jkt } };
}

/** One implementation per grant type; the token endpoint picks the one that matches. */
export interface GrantHandler {
  readonly grantType: GrantType;
  /**
   * Whether a public client (registered without a secret) may use this grant presenting only its
   * client_id: true where something else proves possession (PKCE verifier, refresh token), as the
   * spec's token table says. A client holding a secret authenticates with it at every grant.
   */
  readonly allowsClientIdOnly: boolean;
  /**
   * For a grant whose assertion is the credential (RFC 7523 section 2.1, workload federation):
   * the client the assertion maps to, in place of client authentication.
   */
  clientOf?(params: Readonly<Record<string, string>>): Promise<AuthenticatedClient>;
  handle(request: TokenRequest): Promise<TokenResponse>;
}
