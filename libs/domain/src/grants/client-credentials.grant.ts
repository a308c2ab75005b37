import type { Clock } from '../clock';
import { OAuthError } from '../errors';
import { parseScope, uncoveredScopes } from '../scopes';
import type { TokenEventStore } from '../events/token-event';
import type { JwtAccessTokenStrategy } from '../tokens/access-token';
import { confirmationOf, tokenTypeOf, type GrantHandler, type TokenRequest, type TokenResponse } from './grant-handler';
import type { TokenTargets } from './token-target';

/** RFC 6749 section 4.4: the app acts as itself with the scopes it declared. */
export class ClientCredentialsGrant implements GrantHandler {
  readonly grantType = 'client_credentials' as const;
  readonly allowsClientIdOnly = false;

  constructor(
    private readonly accessTokens: JwtAccessTokenStrategy,
    private readonly events: Pick<TokenEventStore, 'appendTokenEvents'>,
    private readonly targets: TokenTargets,
    private readonly clock: Clock,
  ) {}

  async handle(request: TokenRequest): Promise<TokenResponse> {
    const { params, client } = request;
    const declared = client.app.declaredScopes;
    const requested = params.scope === undefined ? declared : parseScope(params.scope);
    // An app that declares nothing (a service account registered without scopes) gets a token
    // that proves who it is and allows nothing; asking for an empty scope stays an error.
    const nothingDeclared = params.scope === undefined && declared.length === 0;
    if (requested.length === 0 && !nothingDeclared) throw new OAuthError('invalid_scope', 'scope is empty');
    const refused = uncoveredScopes(declared, requested);
    if (refused.length > 0) {
      throw new OAuthError('invalid_scope', `scope not declared by the client: ${refused.join(' ')}`);
    }
    // No lookup unless the request names a resource: the common request pays nothing for it.
    const audience = params.resource === undefined ? undefined : await this.targets.resource(params.resource);
    const { token: signing, claims } = this.accessTokens.begin({
      clientId: client.app.clientId,
      subject: client.app.clientId,
      scopes: requested,
      ...(client.app.tenant !== null && { tenant: client.app.tenant }),
      ...(audience !== undefined && { audience }),
      ...confirmationOf(request),
    });
    // The event is stored while the thread pool signs: the requests of a batch reach the group
    // commit in the same turn and share one commit (docs/performance.md). The token is answered
    // only once both are done; a failed write answers no token.
    const [token] = await Promise.all([
      signing,
      this.events.appendTokenEvents([
        {
          type: 'token.issued',
          clientId: claims.client_id,
          subject: claims.sub,
          jti: claims.jti,
          grantId: null,
          occurredAt: this.clock.now(),
        },
      ]),
    ]);
    return {
      access_token: token,
      token_type: tokenTypeOf(confirmationOf(request).confirmation),
      expires_in: claims.exp - claims.iat,
      scope: claims.scope,
    };
  }
}
