import type { Clock } from '../clock';
import { OAuthError } from '../errors';
import type { TokenEventStore } from '../events/token-event';
import type { WorkloadTokenVerifier } from '../federation/workload-token-verifier';
import { JWT_BEARER_GRANT } from '../registry/application';
import { parseScope, uncoveredScopes } from '../scopes';
import type { JwtAccessTokenStrategy } from '../tokens/access-token';
import { confirmationOf, tokenTypeOf, type GrantHandler, type TokenRequest, type TokenResponse } from './grant-handler';

/**
 * RFC 7523 section 2.1, workload identity federation (docs/workload-identity.md): a pod or a CI
 * job trades its own short-lived token for a platform token of the app a tenant's rule maps it
 * to, with the rule's scopes (or fewer, `scope`), living no longer than the workload's token. No
 * stored secret: the token is the credential (`clientOf`). Audited `token.federated` with the
 * issuer, the workload's subject, the rule and the app.
 */
export class JwtBearerGrant implements GrantHandler {
  readonly grantType = JWT_BEARER_GRANT;
  readonly allowsClientIdOnly = false;

  constructor(
    private readonly workloads: Pick<WorkloadTokenVerifier, 'authenticate'>,
    private readonly accessTokens: JwtAccessTokenStrategy,
    /** Grouped commits, as client credentials' (docs/performance.md). */
    private readonly events: Pick<TokenEventStore, 'appendTokenEvents'>,
    private readonly clock: Clock,
  ) {}

  clientOf(params: Readonly<Record<string, string>>) {
    return this.workloads.authenticate(params);
  }

  async handle(request: TokenRequest): Promise<TokenResponse> {
    const { params, client } = request;
    const workload = client.federation;
    if (workload === undefined) throw new OAuthError('invalid_client', 'client authentication failed');
    const requested = params.scope === undefined ? workload.scopes : parseScope(params.scope);
    const refused = uncoveredScopes(workload.scopes, requested);
    if (refused.length > 0) {
      throw new OAuthError('invalid_scope', `scope beyond the rule: ${refused.join(' ')}`);
    }
    const now = this.clock.now();
    const { token: signing, claims } = this.accessTokens.begin({
      clientId: client.app.clientId,
      subject: client.app.clientId,
      scopes: requested,
      ...(client.app.tenant !== null && { tenant: client.app.tenant }),
      lifetimeSeconds: workload.expiresAt - Math.floor(now.getTime() / 1000),
      ...confirmationOf(request),
    });
    const [token] = await Promise.all([
      signing,
      this.events.appendTokenEvents([
        {
          type: 'token.federated',
          clientId: claims.client_id,
          subject: claims.sub,
          jti: claims.jti,
          grantId: null,
          occurredAt: now,
          tenant: client.app.tenant,
          attributes: {
            issuer: workload.issuer,
            workload_subject: workload.subject,
            rule: workload.rule,
            app: client.app.clientId,
            issuer_id: workload.issuerId,
          },
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
