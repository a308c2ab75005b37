import type { GrantType } from '../registry/application';
import type { AuthenticatedClient } from '../clients/client-authenticator';

export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
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
  handle(request: TokenRequest): Promise<TokenResponse>;
}
