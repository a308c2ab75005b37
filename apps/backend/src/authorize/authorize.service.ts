import { Inject, Injectable } from '@nestjs/common';
import type { PlatformConfig } from '@platform/config';
import {
  AUTHORIZATION_PARAMETER_MAX_LENGTH,
  afterForcedLogin,
  authorizationResponseUri,
  DomainError,
  oversizedAuthorizationParameter,
  readOidcParameters,
  sessionVerdict,
} from '@platform/domain';
import { CsrfTokens } from '../browser/csrf';
import { PLATFORM_CONFIG } from '../config';
import { formActionSource } from '../browser/html';
import type { ConsentView } from '../browser/pages';
import { MAX_RETURN_TO_LENGTH } from '../browser/return-to';
import {
  AuthorizationClient,
  type AuthorizeDecision,
  type AuthorizeParameters,
  type AuthorizeRefusal,
} from '../clients/authorization.client';
import { SessionsClient } from '../clients/sessions.client';
import { type AuthorizationRequest, authorizePath } from './authorization-request';

/** Where an authorization request goes next. Error pages are thrown as DomainErrors. */
export type AuthorizeOutcome =
  /** Back to the client: a code, or an error it can handle. */
  | { kind: 'redirect'; location: string }
  /** To the login, coming back to this authorization request; `sessionEnded`: drop the cookie. */
  | { kind: 'login'; location: string; sessionEnded: boolean }
  /** The consent screen; `formActions`: the client's redirect origin, for the page's CSP. */
  | { kind: 'consent'; view: ConsentView; formActions: string[] };

export type Decision = 'approve' | 'deny';

/**
 * The browser side of the authorization endpoint. The control plane judges the request (client,
 * redirect URI, response type, PKCE, scopes) before anyone is asked to log in; a request that
 * cannot be trusted to redirect shows an error page and never leaves this server.
 */
@Injectable()
export class AuthorizeService {
  constructor(
    private readonly authorization: AuthorizationClient,
    private readonly sessions: SessionsClient,
    private readonly csrf: CsrfTokens,
    @Inject(PLATFORM_CONFIG) config: Pick<PlatformConfig, 'issuer'>,
  ) {
    this.issuer = config.issuer;
  }

  private readonly issuer: string;

  async begin(request: AuthorizationRequest, session: string | undefined): Promise<AuthorizeOutcome> {
    refuseRepeatedTarget(request);
    // Oversized parameters (every one of them) are left out of the check, which still tells
    // whether the client and redirect URI can be trusted with the refusal (and a huge `state` is
    // not echoed); the first is named in it.
    const oversized = oversizedAuthorizationParameter(request.parameters);
    const parameters = { ...request.parameters };
    for (let name = oversized; name !== undefined; name = oversizedAuthorizationParameter(parameters)) {
      parameters[name] = undefined;
    }
    const check = await this.authorization.check(parameters);
    const trusted = check.ok || check.refusal.redirectable;
    if (oversized !== undefined && trusted && parameters.redirect_uri !== undefined) {
      return {
        kind: 'redirect',
        location: authorizationResponseUri(parameters.redirect_uri, this.issuer, {
          error: 'invalid_request',
          error_description: `${oversized} is longer than ${AUTHORIZATION_PARAMETER_MAX_LENGTH[oversized]} characters`,
          state: parameters.state,
        }),
      };
    }
    if (!check.ok) return refusalOutcome(check.refusal, parameters, this.issuer);
    const repeated = repeatedParameterRedirect(request, check.request.redirectUri, this.issuer);
    if (repeated !== undefined) return repeated;

    const returnTo = authorizePath(parameters);
    if (returnTo.length > MAX_RETURN_TO_LENGTH) {
      return {
        kind: 'redirect',
        location: authorizationResponseUri(check.request.redirectUri, this.issuer, {
          error: 'invalid_request',
          error_description: 'The authorization request is too long',
          state: parameters.state,
        }),
      };
    }
    const resolved = session === undefined ? undefined : await this.sessions.resolve(session);
    const oidc = readOidcParameters(parameters);
    // The control plane refused malformed prompt and max_age values already.
    if (typeof oidc === 'string') throw new DomainError('validation_failed', oidc);
    const verdict = sessionVerdict(
      { ...oidc, hintedSubject: check.request.hintedSubject },
      resolved && { userId: resolved.user.id, authTime: resolved.authTime },
      new Date(),
    );
    if (verdict === 'login_required') {
      return {
        kind: 'redirect',
        location: authorizationResponseUri(check.request.redirectUri, this.issuer, {
          error: 'login_required',
          error_description:
            resolved === undefined ? 'no one is signed in' : 'the request needs a new or different sign-in',
          state: parameters.state,
        }),
      };
    }
    if (verdict === 'login' || session === undefined || resolved === undefined) {
      const back = authorizePath(afterForcedLogin(parameters));
      return toLogin(back, session !== undefined && resolved === undefined, {
        forceLogin: resolved !== undefined,
        loginHint: parameters.login_hint,
      });
    }
    // prompt=none: no page; the control plane issues the code if the user consented before.
    if (oidc.prompt.includes('none')) return this.decided(await this.authorization.decide(parameters, session, true), parameters);
    const { user } = resolved;

    const formAction = formActionSource(check.request.redirectUri);
    return {
      kind: 'consent',
      formActions: formAction === undefined ? [] : [formAction],
      view: {
        clientName: check.request.clientName,
        redirectUri: check.request.redirectUri,
        scopes: check.request.scopes,
        user: { name: user.name, email: user.email },
        parameters: presentParameters(parameters),
        csrfToken: this.csrf.tokenFor(session),
        returnTo,
      },
    };
  }

  /** The consent form came back: CSRF token first, then the control plane issues the code or the denial. */
  async decide(
    request: AuthorizationRequest,
    session: string | undefined,
    csrfToken: unknown,
    decision: unknown,
  ): Promise<AuthorizeOutcome> {
    if (!this.csrf.matches(session, csrfToken) || session === undefined) {
      throw new DomainError(
        'forbidden',
        'This form could not be verified: its security token is missing or does not belong to your session. Nothing was authorized. Please start again from the application.',
      );
    }
    if (decision !== 'approve' && decision !== 'deny') {
      throw new DomainError('validation_failed', 'Choose Approve or Deny.');
    }
    const { parameters } = request;
    refuseRepeatedTarget(request);
    // Never from the consent page, which carries what `begin` accepted: a forged form.
    const oversized = oversizedAuthorizationParameter(parameters);
    if (oversized !== undefined) {
      throw new DomainError(
        'validation_failed',
        `The authorization request is invalid: ${oversized} is too long.`,
      );
    }
    return this.decided(await this.authorization.decide(parameters, session, decision === 'approve'), parameters);
  }

  private decided(answer: AuthorizeDecision, parameters: AuthorizeParameters): AuthorizeOutcome {
    switch (answer.outcome) {
      case 'redirect':
        return { kind: 'redirect', location: answer.redirectTo };
      case 'refused':
        return refusalOutcome(answer.refusal, parameters, this.issuer);
      case 'session-expired':
        return toLogin(authorizePath(parameters), true);
      default:
        return assertNever(answer);
    }
  }
}

/** The client and its redirect URI decide where the browser may go: sent twice, neither can be trusted. */
function refuseRepeatedTarget({ repeated }: AuthorizationRequest): void {
  const target = repeated.find((name) => name === 'client_id' || name === 'redirect_uri');
  if (target !== undefined) {
    throw new DomainError(
      'validation_failed',
      `The application sent an invalid authorization request: ${target} appears more than once.`,
    );
  }
}

function repeatedParameterRedirect(
  { parameters, repeated }: AuthorizationRequest,
  redirectUri: string,
  issuer: string,
): AuthorizeOutcome | undefined {
  if (repeated.length === 0) return undefined;
  return {
    kind: 'redirect',
    location: authorizationResponseUri(redirectUri, issuer, {
      error: 'invalid_request',
      error_description: `${repeated[0]} appears more than once`,
      state: parameters.state,
    }),
  };
}

function refusalOutcome(
  refusal: AuthorizeRefusal,
  parameters: AuthorizeParameters,
  issuer: string,
): AuthorizeOutcome {
  if (!refusal.redirectable || parameters.redirect_uri === undefined) {
    throw new DomainError(
      'validation_failed',
      `The application sent an invalid authorization request${
        refusal.errorDescription ? `: ${refusal.errorDescription}` : ` (${refusal.error})`
      }. You cannot be sent back to it; please contact its developers.`,
    );
  }
  return {
    kind: 'redirect',
    location: authorizationResponseUri(parameters.redirect_uri, issuer, {
      error: refusal.error,
      error_description: refusal.errorDescription,
      state: parameters.state,
    }),
  };
}

/**
 * To the login, coming back to `returnTo`. `forceLogin` asks the identity provider to
 * authenticate the user again (prompt=login, max_age); `loginHint` is passed on to it.
 */
function toLogin(
  returnTo: string,
  sessionEnded: boolean,
  upstream: { forceLogin?: boolean; loginHint?: string } = {},
): AuthorizeOutcome {
  const query = new URLSearchParams({ return_to: returnTo });
  if (upstream.forceLogin) query.set('prompt', 'login');
  if (upstream.loginHint !== undefined) query.set('login_hint', upstream.loginHint);
  return { kind: 'login', location: `/auth/login?${query.toString()}`, sessionEnded };
}

function presentParameters(parameters: AuthorizeParameters): Record<string, string> {
  return Object.fromEntries(
    Object.entries(parameters).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}

function assertNever(value: never): never {
  throw new Error(`unhandled decision outcome ${JSON.stringify(value)}`);
}
