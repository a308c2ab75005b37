import { randomUUID } from 'node:crypto';
import type { AuditLog } from '../audit/audit-log';
import type { AuditTrail } from '../audit/audit-trail';
import { userScopes } from '../authority/reserved-scopes';
import type { AssertionReplays } from '../clients/assertion-replays';
import type { Clock } from '../clock';
import { DomainError, invalidGrant, OAuthError } from '../errors';
import { SAML2_BEARER_GRANT } from '../registry/application';
import type { SamlAssertionValidator, VerifiedAssertion } from '../saml/saml-assertion-validator';
import { userFromAssertion } from '../saml/saml-attributes';
import { SamlRefusal } from '../saml/saml-document';
import type { SamlIdentityProvider, SamlIdentityProviderStore } from '../saml/saml-identity-provider';
import { samlAssertionKey, samlRefusalRecord } from '../saml/saml-sign-in';
import { formatScope, parseScope, uncoveredScopes } from '../scopes';
import { signedInUser } from '../sessions/session.service';
import type { Transactor } from '../storage';
import type { JwtAccessTokenStrategy } from '../tokens/access-token';
import {
  confirmationOf,
  tokenTypeOf,
  type GrantHandler,
  type TokenRequest,
  type TokenResponse,
} from './grant-handler';
import { effectiveRoles } from './user-tokens';

export interface Saml2BearerSettings {
  /** The token endpoint's URL: the assertion's Audience and its confirmation's Recipient (RFC 7522 3). */
  tokenEndpoint: string;
}

/**
 * RFC 7522 section 2.1, the SAML 2.0 bearer assertion grant (docs/saml.md): a registered
 * `service` app bound to a tenant, authenticated as at every grant, trades an assertion of
 * that tenant's SAML IdP (`assertion`, base64url) for an access token of the user it names, with
 * the app's declared scopes or fewer (`scope`). The assertion is checked as a sign-in's is
 * (`SamlAssertionValidator`), with the token endpoint as its Audience and Recipient, and used
 * once; the user is found or created, and linked to a SCIM-provisioned user, by the same rule as
 * every login (`signedInUser`). No refresh token: the app asks the IdP for a new assertion.
 * Every refusal is `invalid_grant` in RFC 6749's words (the reason logged, and audited as
 * `saml.bearer_refused` with its code); an issuance is the token event `token.issued` with
 * `grant_type` and `idp`.
 */
export class Saml2BearerGrant implements GrantHandler {
  readonly grantType = SAML2_BEARER_GRANT;
  readonly allowsClientIdOnly = false;

  constructor(
    private readonly identityProviders: Pick<SamlIdentityProviderStore, 'findSamlIdentityProvider'>,
    private readonly validator: Pick<SamlAssertionValidator, 'validateAssertion'>,
    private readonly replays: Pick<AssertionReplays, 'firstUse'>,
    private readonly transactor: Transactor,
    private readonly accessTokens: JwtAccessTokenStrategy,
    private readonly audit: Pick<AuditLog, 'append'>,
    private readonly trail: AuditTrail,
    private readonly settings: Saml2BearerSettings,
    private readonly clock: Clock,
  ) {}

  async handle(request: TokenRequest): Promise<TokenResponse> {
    const { params, client } = request;
    if (!params.assertion) throw new OAuthError('invalid_request', 'assertion is required');
    const tenant = client.app.tenant;
    if (tenant === null) {
      throw new OAuthError(
        'unauthorized_client',
        'the client is bound to no tenant, so to no SAML identity provider',
      );
    }
    const requested = params.scope === undefined ? client.app.declaredScopes : parseScope(params.scope);
    const beyond = uncoveredScopes(client.app.declaredScopes, requested);
    if (beyond.length > 0)
      throw new OAuthError('invalid_scope', `scope beyond the app's: ${beyond.join(' ')}`);

    const idp = await this.identityProviders.findSamlIdentityProvider(tenant);
    if (idp === null) {
      throw await this.refused(
        { tenant, entityId: '' },
        client.app.clientId,
        new SamlRefusal('unknown_identity_provider', "the client's tenant has no SAML identity provider"),
      );
    }
    let assertion: VerifiedAssertion;
    try {
      assertion = await this.validator.validateAssertion(params.assertion, idp, {
        audience: this.settings.tokenEndpoint,
        recipient: this.settings.tokenEndpoint,
      });
      if (
        !(await this.replays.firstUse(
          samlAssertionKey(tenant, idp.entityId, assertion.id),
          assertion.rememberUntil,
        ))
      ) {
        throw new SamlRefusal('replayed', 'the assertion was presented before');
      }
    } catch (error) {
      if (error instanceof SamlRefusal) throw await this.refused(idp, client.app.clientId, error);
      throw error;
    }
    return this.issue(request, idp, assertion, userScopes(requested));
  }

  private async issue(
    request: TokenRequest,
    idp: SamlIdentityProvider,
    assertion: VerifiedAssertion,
    scopes: string[],
  ): Promise<TokenResponse> {
    const { client } = request;
    const now = this.clock.now();
    const pending = await this.transactor.inTransaction(async (stores) => {
      let user;
      try {
        user = await signedInUser(stores, this.trail, userFromAssertion(idp, assertion), now);
      } catch (error) {
        // Thrown, so the transaction rolls back as the sign-in's does.
        if (error instanceof DomainError && error.code === 'forbidden')
          throw invalidGrant('the user is deactivated');
        throw error;
      }
      const issued = this.accessTokens.begin({
        clientId: client.app.clientId,
        subject: user.id,
        scopes,
        user: { tenant: user.tenant, roles: effectiveRoles(user), grantId: randomUUID() },
        ...confirmationOf(request),
      });
      issued.token.catch(() => undefined); // awaited below; a failed write drops it
      await stores.tokenEvents.appendTokenEvents([
        {
          type: 'token.issued',
          clientId: client.app.clientId,
          subject: user.id,
          jti: issued.claims.jti,
          grantId: issued.claims.grant_id ?? null,
          occurredAt: now,
          tenant: user.tenant,
          attributes: { grant_type: SAML2_BEARER_GRANT, idp: idp.entityId },
        },
      ]);
      return issued;
    });
    return {
      access_token: await pending.token,
      token_type: tokenTypeOf(confirmationOf(request).confirmation),
      expires_in: pending.claims.exp - pending.claims.iat,
      scope: formatScope(scopes),
    };
  }

  private async refused(
    idp: Pick<SamlIdentityProvider, 'tenant' | 'entityId'>,
    clientId: string,
    refusal: SamlRefusal,
  ): Promise<OAuthError> {
    await this.audit.append(
      samlRefusalRecord(this.trail, idp, 'saml.bearer_refused', refusal, { client_id: clientId }),
    );
    return invalidGrant(`saml ${refusal.code}: ${refusal.reason}`);
  }
}
