import { randomUUID } from 'node:crypto';
import type { Application } from '../registry/application';
import type { Clock } from '../clock';
import { authorizationResponseUri } from '../registry/redirect-uri';
import type { ScopeDescription, ScopeRegistry } from '../registry/scope-registry';
import type { SessionService } from '../sessions/session.service';
import type { AuditTrail } from '../audit/audit-trail';
import type { Transactor } from '../storage';
import { authorizationCodes } from '../tokens/opaque-token';
import {
  AuthorizationRequestError,
  type AuthorizationRequestParams,
  type AuthorizationRequestValidator,
  type ValidAuthorizationRequest,
} from './authorization-request';
import { DomainError } from '../errors';
import type { IdTokenIssuer } from '../oidc/id-token';
import { sessionVerdict } from '../oidc/oidc-request';
import { scopesCover } from '../scopes';

export const AUTHORIZATION_CODE_LIFETIME_SECONDS = 60;

/** What the consent screen shows. */
export interface ConsentPrompt {
  client: Application;
  redirectUri: string;
  scopes: ScopeDescription[];
  /** The user an `id_token_hint` names: the browser's session must be that user's. */
  hintedSubject?: string;
}

export interface ConsentDecision {
  request: AuthorizationRequestParams;
  /** The browser's session value. */
  session: string;
  approved: boolean;
}

/**
 * The authorization endpoint's decisions (RFC 6749 section 4.1.1 and 4.1.2): what to ask the
 * user, and where to send the browser once they answered. Every decision re-validates the
 * request, since the browser carried it between the two calls.
 */
export class ConsentService {
  constructor(
    private readonly validator: AuthorizationRequestValidator,
    private readonly scopes: Pick<ScopeRegistry, 'describe'>,
    private readonly sessions: Pick<SessionService, 'resolveSession'>,
    private readonly idTokens: Pick<IdTokenIssuer, 'verifyHint'>,
    private readonly transactor: Transactor,
    private readonly trail: AuditTrail,
    private readonly issuer: string,
    private readonly clock: Clock,
  ) {}

  async check(params: AuthorizationRequestParams): Promise<ConsentPrompt> {
    const request = await this.validator.validate(params);
    const hintedSubject = await this.hintedSubject(params);
    return {
      client: request.client,
      redirectUri: request.redirectUri,
      scopes: await this.scopes.describe(request.scopes),
      ...(hintedSubject !== undefined && { hintedSubject }),
    };
  }

  /**
   * The URI to redirect the browser to: with a code (and state) on approval, else access_denied.
   * Either answer is audited (`consent.approved`, `consent.denied`), the approval in the
   * transaction that stores its code.
   */
  async decide(decision: ConsentDecision): Promise<string> {
    const { user, stamp } = await this.sessions.resolveSession(decision.session);
    const request = await this.validator.validate(decision.request);
    const now = this.clock.now();
    // The rule the edge applied before showing the page, again: the form may be stale or forged.
    const hintedSubject = await this.hintedSubject(decision.request);
    const verdict = sessionVerdict({ ...request.oidc, hintedSubject }, { ...stamp, userId: user.id }, now);
    if (verdict === 'login') throw new DomainError('unauthenticated', 'the request asks for a new login');
    if (verdict === 'login_required') {
      throw new AuthorizationRequestError('login_required', 'the signed-in user cannot be used', true);
    }
    if (request.oidc.prompt.includes('none') && !(await this.consented(user.id, request))) {
      throw new AuthorizationRequestError('consent_required', 'the user has not approved these scopes', true);
    }
    const audited = (approved: boolean) =>
      this.trail.record({
        actor: { kind: 'user', id: user.id },
        action: approved ? 'consent.approved' : 'consent.denied',
        outcome: approved ? 'success' : 'denied',
        target: request.client.clientId,
        tenant: user.tenant,
        attributes: { scope: request.scopes.join(' ') },
        occurredAt: now,
      });
    if (!decision.approved) {
      await this.transactor.inTransaction((stores) => stores.audit.appendAuditRecords([audited(false)]));
      return authorizationResponseUri(request.redirectUri, this.issuer, {
        error: 'access_denied',
        state: request.state,
      });
    }
    const code = authorizationCodes.generate();
    await this.transactor.inTransaction(async (stores) => {
      // Each approval starts a grant of its own: its tokens can be revoked together.
      await stores.authorizationCodes.insertAuthorizationCode({
        codeHash: code.hash,
        grantId: randomUUID(),
        clientId: request.client.clientId,
        userId: user.id,
        redirectUri: request.redirectUri,
        scopes: request.scopes,
        codeChallenge: request.codeChallenge,
        codeChallengeMethod: 'S256',
        ...(request.nonce !== undefined && { nonce: request.nonce }),
        session: stamp,
        createdAt: now,
        expiresAt: new Date(now.getTime() + AUTHORIZATION_CODE_LIFETIME_SECONDS * 1000),
        consumedAt: null,
      });
      await stores.audit.appendAuditRecords([audited(true)]);
    });
    return authorizationResponseUri(request.redirectUri, this.issuer, {
      code: code.value,
      state: request.state,
    });
  }

  /**
   * The subject of the request's `id_token_hint`: it must be an ID token of ours (Core section
   * 3.1.2.1), else the request is refused.
   */
  private async hintedSubject(params: AuthorizationRequestParams): Promise<string | undefined> {
    if (params.id_token_hint === undefined) return undefined;
    const claims = await this.idTokens.verifyHint(params.id_token_hint);
    if (claims === null) {
      throw new AuthorizationRequestError('invalid_request', 'id_token_hint is not an ID token of this issuer', true);
    }
    return claims.sub;
  }

  /**
   * Consent a silent request may rely on: a live grant of the user to this client holding every
   * scope asked for. Revoking the grant (or its refresh token expiring) forgets it.
   */
  private async consented(userId: string, request: ValidAuthorizationRequest): Promise<boolean> {
    const live = await this.transactor.inTransaction((stores) =>
      stores.refreshTokens.findLiveRefreshTokens(userId, request.client.clientId, this.clock.now()),
    );
    return live.some((token) => request.scopes.every((scope) => scopesCover(token.scopes, scope)));
  }
}
