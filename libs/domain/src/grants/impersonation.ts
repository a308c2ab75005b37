import { impersonationRefusal } from '../authority/impersonation';
import { userScopes } from '../authority/reserved-scopes';
import type { Clock } from '../clock';
import { OAuthError } from '../errors';
import { DEFAULT_IMPERSONATION_MODE } from '../impersonation/impersonation-policy';
import { parseScope, uncoveredScopes } from '../scopes';
import type { TokenEventStore } from '../events/token-event';
import type { Stores } from '../storage';
import type { JwtAccessTokenStrategy } from '../tokens/access-token';
import type { AccessTokenValidator } from '../tokens/token-validator';
import { confirmationOf, type TokenRequest, type TokenResponse } from './grant-handler';
import { type ExchangeSettings, issueExchangedToken, unacceptable } from './token-exchange';
import { effectiveRoles } from './user-tokens';

/** A reason is for people reading the audit log: a sentence, not an essay. */
export const MAX_IMPERSONATION_REASON_LENGTH = 500;

/** Every refusal about the target reads the same, so the answer does not tell who exists where. */
const NOT_IMPERSONABLE = 'the actor may not impersonate this user';

/**
 * Impersonation (docs/tokens.md, "Impersonation"): a user holding `users.impersonate` for the
 * target's tenant, presenting its own token as the `actor_token` through a client registered
 * for it, obtains a token *as* the target user: the target's tenant and roles, the actor's
 * scopes or fewer, `act` naming the impersonator, the tenant's mode (full or read-only), living
 * at most IMPERSONATION_MAX_LIFETIME_SECONDS and never refreshed. It belongs to the
 * impersonator's grant, so ending the impersonator's session (or deleting the client) ends it.
 * Audited with who, whom, why and until when.
 */
export class Impersonation {
  constructor(
    private readonly accessTokens: JwtAccessTokenStrategy,
    private readonly validator: Pick<AccessTokenValidator, 'validate'>,
    private readonly stores: Pick<Stores, 'users' | 'impersonationPolicies'>,
    private readonly events: Pick<TokenEventStore, 'appendTokenEvents'>,
    private readonly settings: ExchangeSettings,
    private readonly clock: Clock,
  ) {}

  /** For a client registered for impersonation (the grant checks that), to an allowed target. */
  async handle(
    { params, client, dpop }: TokenRequest,
    target: string | undefined,
    issuedTokenType: string,
  ): Promise<TokenResponse> {
    if (params.actor_token === undefined) {
      throw new OAuthError('invalid_request', 'actor_token is required to impersonate');
    }
    const reason = params.reason?.trim() ?? '';
    if (reason === '' || reason.length > MAX_IMPERSONATION_REASON_LENGTH) {
      throw new OAuthError(
        'invalid_request',
        `reason is required to impersonate (at most ${MAX_IMPERSONATION_REASON_LENGTH} characters)`,
      );
    }
    const actor = await this.validator.validate(params.actor_token);
    if (!actor) throw unacceptable('the actor_token is invalid, expired or revoked');
    if (actor.client_id !== client.app.clientId) {
      throw unacceptable('the actor_token was not issued to this client');
    }
    if (!actor.grant_id || actor.act || actor.impersonation) {
      throw unacceptable("the actor_token must be a user's own token");
    }
    const grantId = actor.grant_id;
    const actorScopes = userScopes(parseScope(actor.scope));
    const requested = parseScope(params.scope);
    const refused = uncoveredScopes(actorScopes, requested);
    if (refused.length > 0) {
      throw new OAuthError('invalid_scope', `scope beyond the actor_token: ${refused.join(' ')}`);
    }
    const now = Math.floor(this.clock.now().getTime() / 1000);
    const lifetimeSeconds = Math.min(this.settings.impersonationMaxLifetimeSeconds, actor.exp - now);
    const impersonator = await this.stores.users.findUser(actor.sub);
    if (!impersonator?.active) throw unacceptable('the actor_token is invalid, expired or revoked');
    const user = await this.stores.users.findUser(params.subject_token);
    const refusal = user
      ? impersonationRefusal(
          {
            kind: 'user',
            id: impersonator.id,
            clientId: actor.client_id,
            tenant: impersonator.tenant,
            roles: effectiveRoles(impersonator),
            scopes: actorScopes,
          },
          { id: user.id, tenant: user.tenant, roles: effectiveRoles(user) },
        )
      : 'no such user';
    if (!user || refusal !== null) throw unacceptable(NOT_IMPERSONABLE, refusal ?? undefined);
    if (!user.active) throw unacceptable(NOT_IMPERSONABLE, 'the user is deactivated');
    const mode =
      (await this.stores.impersonationPolicies.findImpersonationPolicy(user.tenant)) ??
      DEFAULT_IMPERSONATION_MODE;
    if (mode === 'disabled') throw unacceptable(`impersonation is disabled in tenant ${user.tenant}`);
    return issueExchangedToken(
      this.accessTokens,
      this.events,
      this.clock,
      {
        clientId: client.app.clientId,
        subject: user.id,
        scopes: requested.length > 0 ? requested : actorScopes,
        user: { tenant: user.tenant, roles: effectiveRoles(user), grantId },
        ...(target !== undefined && { audience: target }),
        act: { sub: impersonator.id, client_id: actor.client_id },
        impersonation: mode,
        lifetimeSeconds,
        ...confirmationOf({ dpop }),
      },
      issuedTokenType,
      {
        type: 'token.impersonated',
        grantId,
        tenant: user.tenant,
        actor: { kind: 'user', id: impersonator.id },
        attributes: {
          impersonator: impersonator.id,
          impersonator_tenant: impersonator.tenant,
          reason,
          mode,
        },
      },
    );
  }
}
