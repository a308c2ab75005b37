import type { Clock } from '../clock';
import { OAuthError } from '../errors';
import { TOKEN_EXCHANGE_GRANT } from '../registry/application';
import { parseScope, uncoveredScopes } from '../scopes';
import type { TokenEventStore } from '../events/token-event';
import type { Stores } from '../storage';
import type { AccessTokenClaims, ActorClaim, JwtAccessTokenStrategy } from '../tokens/access-token';
import { actorsOf, type AccessTokenValidator } from '../tokens/token-validator';
import { confirmationOf, type GrantHandler, type TokenRequest, type TokenResponse } from './grant-handler';
import { Impersonation } from './impersonation';
import type { TokenTargets } from './token-target';
import {
  type ExchangeSettings,
  ISSUABLE_TOKEN_TYPES,
  issueExchangedToken,
  MAX_ACTOR_CHAIN,
  TOKEN_TYPE,
  unacceptable,
} from './token-exchange';
import { effectiveRoles } from './user-tokens';

const ACCESS_TOKEN_TYPES: readonly string[] = [TOKEN_TYPE.accessToken, TOKEN_TYPE.jwt];

/**
 * RFC 8693 token exchange (docs/tokens.md, "Token exchange"). Delegation: a client trades a
 * platform access token it received (the subject) for one naming it as the actor (`act`, nested
 * for a chain), for one audience its registry entry allows, with the subject's scopes or fewer,
 * living no longer than the subject. Impersonation (`subject_token_type` user_id): `Impersonation`.
 */
export class TokenExchangeGrant implements GrantHandler {
  readonly grantType = TOKEN_EXCHANGE_GRANT;
  readonly allowsClientIdOnly = false;
  private readonly impersonation: Impersonation;

  constructor(
    private readonly accessTokens: JwtAccessTokenStrategy,
    private readonly validator: Pick<AccessTokenValidator, 'validate'>,
    private readonly targets: TokenTargets,
    /** Read only: who the users are now, what their tenants allow. */
    private readonly stores: Pick<Stores, 'users' | 'impersonationPolicies'>,
    /** Grouped commits, as client credentials' (docs/performance.md). */
    private readonly events: Pick<TokenEventStore, 'appendTokenEvents'>,
    settings: ExchangeSettings,
    private readonly clock: Clock,
  ) {
    this.impersonation = new Impersonation(accessTokens, validator, stores, events, settings, clock);
  }

  async handle(request: TokenRequest): Promise<TokenResponse> {
    const { params, client } = request;
    const issuedTokenType = params.requested_token_type ?? TOKEN_TYPE.accessToken;
    if (!ISSUABLE_TOKEN_TYPES.includes(issuedTokenType)) {
      throw new OAuthError('invalid_request', 'requested_token_type is not one the platform issues');
    }
    if (!params.subject_token) throw new OAuthError('invalid_request', 'subject_token is required');
    if (!params.subject_token_type) throw new OAuthError('invalid_request', 'subject_token_type is required');
    if ((params.actor_token === undefined) !== (params.actor_token_type === undefined)) {
      throw new OAuthError('invalid_request', 'actor_token and actor_token_type go together');
    }
    if (params.actor_token_type !== undefined && !ACCESS_TOKEN_TYPES.includes(params.actor_token_type)) {
      throw unacceptable('actor_token_type is not supported');
    }
    const impersonating = params.subject_token_type === TOKEN_TYPE.userId;
    if (!impersonating && !ACCESS_TOKEN_TYPES.includes(params.subject_token_type)) {
      throw unacceptable('subject_token_type is not supported');
    }
    // Whether the client may exchange at all comes first: its registry entry says so.
    if (impersonating ? !client.app.mayImpersonate : client.app.exchangeAudiences.length === 0) {
      throw new OAuthError(
        'unauthorized_client',
        impersonating ? 'the client may not request impersonation' : 'the client may not exchange tokens',
      );
    }
    const target =
      params.resource !== undefined
        ? await this.targets.resource(params.resource)
        : await this.targets.audience(params.audience);
    if (target !== undefined && !client.app.exchangeAudiences.includes(target)) {
      throw new OAuthError('invalid_target', 'the client may not exchange tokens for this audience');
    }
    if (impersonating) return this.impersonation.handle(request, target, issuedTokenType);
    return this.delegate(request, target, issuedTokenType);
  }

  private async delegate(
    { params, client, dpop }: TokenRequest,
    target: string | undefined,
    issuedTokenType: string,
  ): Promise<TokenResponse> {
    const subject = await this.validator.validate(params.subject_token, { anyAudience: true });
    if (!subject) throw unacceptable('the subject_token is invalid, expired or revoked');
    // A token restricted to a resource is exchanged by that resource only.
    if (subject.aud !== this.accessTokens.issuer && subject.aud !== client.app.resourceUri) {
      throw unacceptable('the subject_token was not issued for this client');
    }
    const act = await this.actor(params, client.app.clientId, subject);
    const requested = parseScope(params.scope);
    const subjectScopes = parseScope(subject.scope);
    const refused = uncoveredScopes(subjectScopes, requested);
    if (refused.length > 0) {
      throw new OAuthError('invalid_scope', `scope beyond the subject_token: ${refused.join(' ')}`);
    }
    const scopes = requested.length > 0 ? requested : subjectScopes;
    const lifetimeSeconds = subject.exp - Math.floor(this.clock.now().getTime() / 1000);
    let user: { tenant: string; roles: string[]; grantId: string } | undefined;
    if (subject.grant_id) {
      // As stored now, so roles taken away since the subject token was issued do not pass on.
      const stored = await this.stores.users.findUser(subject.sub);
      if (!stored?.active) throw unacceptable('the subject_token is invalid, expired or revoked');
      user = { tenant: stored.tenant, roles: effectiveRoles(stored), grantId: subject.grant_id };
    }
    return issueExchangedToken(
      this.accessTokens,
      this.events,
      this.clock,
      {
        clientId: client.app.clientId,
        subject: subject.sub,
        scopes,
        ...(user ? { user } : subject.tenant !== undefined && { tenant: subject.tenant }),
        audience: target ?? (subject.aud === this.accessTokens.issuer ? undefined : subject.aud),
        act,
        // An impersonation token stays one, read-only included, however often it is exchanged.
        ...(subject.impersonation && { impersonation: subject.impersonation }),
        lifetimeSeconds,
        ...confirmationOf({ dpop }),
      },
      issuedTokenType,
      {
        type: 'token.exchanged',
        grantId: subject.grant_id ?? null,
        tenant: user?.tenant ?? subject.tenant ?? null,
        actor: { kind: 'app', id: client.app.clientId },
        attributes: {
          actor: act.sub,
          subject_client_id: subject.client_id,
          audience: target ?? subject.aud,
          ...(subject.impersonation && { impersonation: subject.impersonation }),
        },
      },
    );
  }

  /**
   * The new actor (RFC 8693 section 4.1): the actor token's subject, or the client itself,
   * in front of the subject's chain; `may_act` on the subject names who may be it (section 4.4).
   */
  private async actor(
    params: TokenRequest['params'],
    clientId: string,
    subject: AccessTokenClaims,
  ): Promise<ActorClaim> {
    let actor: ActorClaim = { sub: clientId, client_id: clientId };
    if (params.actor_token !== undefined) {
      const claims = await this.validator.validate(params.actor_token);
      if (!claims) throw unacceptable('the actor_token is invalid, expired or revoked');
      if (claims.client_id !== clientId) throw unacceptable('the actor_token was not issued to this client');
      actor = { sub: claims.sub, client_id: claims.client_id };
    }
    const mayAct = subject.may_act;
    if (mayAct && (mayAct.sub !== actor.sub || (mayAct.client_id && mayAct.client_id !== actor.client_id))) {
      throw unacceptable('the subject_token does not allow this actor (may_act)');
    }
    if (actorsOf(subject.act).length >= MAX_ACTOR_CHAIN) {
      throw unacceptable(`a delegation chain has at most ${MAX_ACTOR_CHAIN} actors`);
    }
    return subject.act ? { ...actor, act: subject.act } : actor;
  }
}
