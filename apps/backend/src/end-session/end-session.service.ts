import { Injectable, Logger } from '@nestjs/common';
import { DomainError } from '@platform/domain';
import { CsrfTokens } from '../browser/csrf';
import { formActionSource } from '../browser/html';
import { SessionsClient } from '../clients/sessions.client';
import { endSessionConfirmationPage } from './end-session-pages';
import { EndSessionClient, type EndSessionParameters } from './end-session.client';

/** The request's parameters, by their wire names (RP-Initiated Logout 1.0 section 2). */
const PARAMETERS = {
  id_token_hint: 'idTokenHint',
  client_id: 'clientId',
  post_logout_redirect_uri: 'postLogoutRedirectUri',
  state: 'state',
} as const satisfies Record<string, keyof EndSessionParameters>;

export type EndSessionOutcome =
  /** Ask first; `formActions`: the redirect's origin, for the page's CSP. */
  | { kind: 'confirm'; page: string; formActions: string[] }
  /** Done (the session ended if there was one): to the client, or the signed-out page. */
  | { kind: 'done'; redirectTo: string | null };

/**
 * OpenID Connect RP-Initiated Logout 1.0: the end-session endpoint. The control plane judges the
 * request (hint, client, registered `post_logout_redirect_uri`) before anything happens: a
 * refused one is an error page and never a redirect. A live session ends at once when the
 * `id_token_hint` names it; otherwise the user confirms on a page carrying the CSRF token, so a
 * page of another site cannot sign anyone out by sending the browser here.
 */
@Injectable()
export class EndSessionService {
  private readonly logger = new Logger('EndSession');

  constructor(
    private readonly checks: EndSessionClient,
    private readonly sessions: SessionsClient,
    private readonly csrf: CsrfTokens,
  ) {}

  /**
   * `csrfToken`: the confirmation page's token, when the request is its form post (a post
   * without it is a client's request like a GET).
   */
  async handle(
    fields: URLSearchParams,
    session: string | undefined,
    csrfToken: string | undefined,
  ): Promise<EndSessionOutcome> {
    const parameters = readParameters(fields);
    const check = await this.checks.check(parameters, session);
    if (!check.sessionLive || session === undefined) return { kind: 'done', redirectTo: check.redirectTo };
    if (csrfToken !== undefined && !this.csrf.matches(session, csrfToken)) {
      throw new DomainError(
        'forbidden',
        'This sign-out could not be verified: its security token is missing or does not belong to your session.',
      );
    }
    if (csrfToken === undefined && !check.hintMatchesSession) {
      const formAction = check.redirectTo === null ? undefined : formActionSource(check.redirectTo);
      return {
        kind: 'confirm',
        formActions: formAction === undefined ? [] : [formAction],
        page: endSessionConfirmationPage({
          clientName: check.clientName,
          parameters: Object.fromEntries(
            Object.keys(PARAMETERS).flatMap((name) => {
              const value = fields.get(name);
              return value === null ? [] : [[name, value]];
            }),
          ),
          csrfToken: this.csrf.tokenFor(session),
        }),
      };
    }
    await this.sessions.end(session);
    this.logger.log(`signed out at the request of ${parameters.clientId ?? 'a client'}`);
    return { kind: 'done', redirectTo: check.redirectTo };
  }
}

/** The request's parameters alone, as a query: a form post re-sent as a GET. */
export function endSessionQuery(fields: URLSearchParams): string {
  const query = new URLSearchParams();
  for (const name of Object.keys(PARAMETERS))
    for (const value of fields.getAll(name)) query.append(name, value);
  return query.toString();
}

/** Each parameter at most once (as at the authorization endpoint): a repeated one is refused. */
function readParameters(fields: URLSearchParams): EndSessionParameters {
  const parameters: EndSessionParameters = {};
  for (const [name, member] of Object.entries(PARAMETERS)) {
    const values = fields.getAll(name);
    if (values.length > 1) throw new DomainError('validation_failed', `${name} is repeated`);
    if (values.length === 1 && values[0] !== '') parameters[member] = values[0];
  }
  return parameters;
}
