import { randomUUID } from 'node:crypto';
import type { Application } from '../application';
import type { Clock } from '../clock';
import { redirectUriWithParameters } from '../registry/redirect-uri';
import type { ScopeDescription, ScopeRegistry } from '../registry/scope-registry';
import type { SessionService } from '../sessions/session.service';
import type { AuthorizationCodeStore } from '../storage';
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
    private readonly codes: Pick<AuthorizationCodeStore, 'insertAuthorizationCode'>,
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

  /** The URI to redirect the browser to: with a code (and state) on approval, else access_denied. */
  async decide(decision: ConsentDecision): Promise<string> {
    const user = await this.sessions.resolve(decision.session);
    const request = await this.validator.validate(decision.request);
    if (!decision.approved) {
      return redirectUriWithParameters(request.redirectUri, { error: 'access_denied', state: request.state });
    }
    const now = this.clock.now();
    const code = authorizationCodes.generate();
    // Each approval starts a grant of its own: its tokens can be revoked together.
    await this.codes.insertAuthorizationCode({
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
    return redirectUriWithParameters(request.redirectUri, { code: code.value, state: request.state });
  }
}
