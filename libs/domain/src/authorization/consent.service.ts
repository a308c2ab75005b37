import { randomUUID } from 'node:crypto';
import type { Application } from '../registry/application';
import type { Clock } from '../clock';
import { authorizationResponseUri } from '../registry/redirect-uri';
import type { ScopeDescription, ScopeRegistry } from '../registry/scope-registry';
import type { SessionService } from '../sessions/session.service';
import type { AuditTrail } from '../audit/audit-trail';
import type { Transactor } from '../storage';
import { authorizationCodes } from '../tokens/opaque-token';
import type { AuthorizationRequestParams, AuthorizationRequestValidator } from './authorization-request';

export const AUTHORIZATION_CODE_LIFETIME_SECONDS = 60;

/** What the consent screen shows. */
export interface ConsentPrompt {
  client: Application;
  redirectUri: string;
  scopes: ScopeDescription[];
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
    private readonly sessions: Pick<SessionService, 'resolve'>,
    private readonly transactor: Transactor,
    private readonly trail: AuditTrail,
    private readonly issuer: string,
    private readonly clock: Clock,
  ) {}

  async check(params: AuthorizationRequestParams): Promise<ConsentPrompt> {
    const request = await this.validator.validate(params);
    return {
      client: request.client,
      redirectUri: request.redirectUri,
      scopes: await this.scopes.describe(request.scopes),
    };
  }

  /**
   * The URI to redirect the browser to: with a code (and state) on approval, else access_denied.
   * Either answer is audited (`consent.approved`, `consent.denied`), the approval in the
   * transaction that stores its code.
   */
  async decide(decision: ConsentDecision): Promise<string> {
    const user = await this.sessions.resolve(decision.session);
    const request = await this.validator.validate(decision.request);
    const now = this.clock.now();
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
}
