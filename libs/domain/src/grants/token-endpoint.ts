import { appMayUseGrant } from '../registry/application';
import { presentedOwnCredentials, type ClientAuthenticator } from '../clients/client-authenticator';
import { readClientCredentials } from '../clients/client-credentials';
import { OAuthError } from '../errors';
import type { GrantHandler, TokenResponse } from './grant-handler';

/**
 * RFC 6749 section 3.2. Finds the handler for the grant type, authenticates the client the
 * way that grant allows (a client holding a secret always with it, section 3.2.1), enforces the
 * app_type table, then hands over.
 */
export class TokenEndpoint {
  constructor(
    private readonly handlers: readonly GrantHandler[],
    private readonly authenticator: ClientAuthenticator,
  ) {}

  async handle(params: Record<string, string>, authorization: string | undefined): Promise<TokenResponse> {
    const grantType = params.grant_type;
    if (!grantType) throw new OAuthError('invalid_request', 'grant_type is required');
    const handler = this.handlers.find((h) => h.grantType === grantType);
    if (!handler) throw new OAuthError('unsupported_grant_type', `grant_type ${grantType} is not supported`);

    const client = await this.authenticator.authenticate(readClientCredentials(params, authorization));
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
    return handler.handle({ params, client });
  }
}
