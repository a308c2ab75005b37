import type { Clock } from '../clock';
import { validationFailed } from '../errors';
import type { IdTokenIssuer } from '../oidc/id-token';
import type { ApplicationStore } from '../registry/application';
import { redirectUriWithParameters } from '../registry/redirect-uri';
import { sessionIdOf, type SessionStore } from '../sessions/session';
import { sessionTokens } from '../tokens/opaque-token';

/** The parameters of an RP-initiated logout request (OpenID Connect RP-Initiated Logout 1.0 section 2). */
export interface LogoutRequest {
  idTokenHint?: string;
  clientId?: string;
  postLogoutRedirectUri?: string;
  state?: string;
}

/** What the end-session endpoint may do with a request. */
export interface CheckedLogoutRequest {
  /** The client the request names (by `client_id` or the hint's audience), if any. */
  client: { clientId: string; name: string } | null;
  /** Where to send the browser afterwards (registered, with `state`), or null: the signed-out page. */
  redirectTo: string | null;
  /** Whether the browser holds a live session to end. */
  sessionLive: boolean;
  /**
   * The hint names the session's user (and, when it has a `sid`, this very session): the
   * request comes from a client the user signed in to here, so it ends the session without
   * asking. Otherwise the user confirms (a page with the CSRF token), so a page of another site
   * cannot sign anyone out by a plain GET.
   */
  hintMatchesSession: boolean;
}

/**
 * Judges RP-initiated logout requests: the `id_token_hint` must be an ID token of this platform
 * (expired ones too: section 2), `client_id` its audience when both are given, and a
 * `post_logout_redirect_uri` one the client registered, matched exactly; anything else is
 * refused (an error page, never a redirect).
 */
export class LogoutRequests {
  constructor(
    private readonly applications: Pick<ApplicationStore, 'findApplication'>,
    private readonly sessions: Pick<SessionStore, 'findSession'>,
    private readonly idTokens: Pick<IdTokenIssuer, 'verifyHint'>,
    private readonly clock: Clock,
  ) {}

  async check(request: LogoutRequest, session: string | undefined): Promise<CheckedLogoutRequest> {
    const hint =
      request.idTokenHint === undefined ? null : await this.idTokens.verifyHint(request.idTokenHint);
    if (request.idTokenHint !== undefined && hint === null) {
      throw validationFailed('id_token_hint is not an ID token this platform issued');
    }
    if (hint && request.clientId !== undefined && hint.aud !== request.clientId) {
      throw validationFailed('client_id is not the audience of the id_token_hint');
    }
    const clientId = request.clientId ?? hint?.aud;
    const app = clientId === undefined ? null : await this.applications.findApplication(clientId);
    if (clientId !== undefined && !app) throw validationFailed('client_id names no registered application');
    let redirectTo: string | null = null;
    if (request.postLogoutRedirectUri !== undefined) {
      if (!app) {
        throw validationFailed('post_logout_redirect_uri needs the client: send client_id or id_token_hint');
      }
      if (!(app.postLogoutRedirectUris ?? []).includes(request.postLogoutRedirectUri)) {
        throw validationFailed('post_logout_redirect_uri is not registered for this client');
      }
      redirectTo = redirectUriWithParameters(request.postLogoutRedirectUri, { state: request.state });
    }
    const record =
      session !== undefined && sessionTokens.accepts(session)
        ? await this.sessions.findSession(sessionTokens.hash(session))
        : null;
    const sessionLive = record !== null && record.endedAt === null && record.expiresAt > this.clock.now();
    const hintMatchesSession =
      sessionLive &&
      hint !== null &&
      hint.sub === record.userId &&
      (hint.sid === undefined || hint.sid === sessionIdOf(record.sessionHash));
    return {
      client: app ? { clientId: app.clientId, name: app.name } : null,
      redirectTo,
      sessionLive,
      hintMatchesSession,
    };
  }
}
