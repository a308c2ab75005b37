import type { Application, ApplicationStore } from '../registry/application';
import { isS256CodeChallenge } from '../authorization/pkce';
import type { Clock } from '../clock';
import { DomainError } from '../errors';
import { redirectUriProblem, redirectUriWithParameters } from '../registry/redirect-uri';
import type { SessionService } from '../sessions/session.service';
import type { AuthorizationCodeStore } from '../grants/authorization-code';
import { loginCodes } from '../tokens/opaque-token';
import { randomUUID } from 'node:crypto';

/** A login code lives as long as an authorization code: 60 s, single use. */
export const LOGIN_CODE_LIFETIME_SECONDS = 60;

/**
 * RFC 6749 appendix A.5: a state is printable ASCII. Bounded so that, beside `return_to`, it
 * keeps the sealed login cookie under the 4 KiB browsers store.
 */
const APP_STATE = /^[\x20-\x7e]{1,512}$/;

/** Where the app login sends the browser back to: one app's registered callback. */
export interface AppLoginTarget {
  clientId: string;
  clientName: string;
  returnTo: string;
}

/** What the app's login start carries besides `return_to`: its PKCE challenge and its state. */
export interface AppLoginRequest {
  codeChallenge: string;
  /** Echoed to the callback beside the code; the app checks it against the browser's session. */
  state?: string;
}

const refused = (): DomainError =>
  new DomainError(
    'validation_failed',
    'return_to is not the registered callback of an application. The application must send its exact redirect URI.',
  );

/**
 * The app's PKCE challenge and state, as the login start received them (query values: a
 * repeated parameter arrives as an array and is refused). PKCE with S256 is required of every
 * app, with or without a secret, as at /oauth/authorize: RFC 9700 section 2.1.1 requires it of
 * public clients, and for confidential ones it also stops a stolen code injected into the app.
 */
export function readAppLoginRequest(query: {
  code_challenge?: unknown;
  code_challenge_method?: unknown;
  state?: unknown;
}): AppLoginRequest {
  const { code_challenge: challenge, code_challenge_method: method, state } = query;
  if (method !== 'S256') {
    throw new DomainError(
      'validation_failed',
      'code_challenge_method must be S256: the application must use PKCE (RFC 7636) to sign users in.',
    );
  }
  if (typeof challenge !== 'string' || !isS256CodeChallenge(challenge)) {
    throw new DomainError(
      'validation_failed',
      'code_challenge is required: BASE64URL(SHA-256(code_verifier)), 43 characters (RFC 7636).',
    );
  }
  if (state === undefined) return { codeChallenge: challenge };
  if (typeof state !== 'string' || !APP_STATE.test(state)) {
    throw new DomainError('validation_failed', 'state must be 1 to 512 printable ASCII characters.');
  }
  return { codeChallenge: challenge, state };
}

/** Apps that sign users in: every type but `service`, which acts as itself. */
const signsUsersIn = (app: Application): boolean => app.appType !== 'service';

/**
 * `returnTo` is one of the app's callbacks and meets today's redirect URI rules: a row
 * registered before them (say `http://localhost/...`) is refused here as at /oauth/authorize.
 */
const returnsTo = (app: Application, returnTo: string): boolean =>
  signsUsersIn(app) &&
  app.redirectUris.includes(returnTo) &&
  redirectUriProblem(returnTo, app.appType) === null;

/**
 * The app login of the user-forwarding model (docs/internal-api.md): `return_to` is accepted
 * only when it equals a registered redirect URI of exactly one app, so the login can never be
 * an open redirect; after the identity provider's login, the browser goes back there with a
 * one-time login code bound to the app's PKCE challenge, and the app's state, never with a token.
 */
export class AppLoginService {
  constructor(
    private readonly applications: Pick<
      ApplicationStore,
      'findApplication' | 'findApplicationsByRedirectUri'
    >,
    private readonly sessions: Pick<SessionService, 'resolve'>,
    private readonly codes: Pick<AuthorizationCodeStore, 'insertAuthorizationCode'>,
    private readonly clock: Clock,
  ) {}

  /** The app whose callback `returnTo` is; validation_failed unless exactly one app registered it. */
  async target(returnTo: string): Promise<AppLoginTarget> {
    if (returnTo === '') throw refused();
    // Two are enough to tell "exactly one" from "more than one".
    const found = await this.applications.findApplicationsByRedirectUri(returnTo, 2);
    const matches = found.filter((app) => returnsTo(app, returnTo));
    if (matches.length !== 1) throw refused();
    return { clientId: matches[0].clientId, clientName: matches[0].name, returnTo };
  }

  /**
   * After the login: a one-time code for the app, bound to the user, the app, its callback and
   * its PKCE challenge, carrying every scope the app declares. Answers the URL to send the
   * browser to (the code and the app's state). The target is checked again, since the app may
   * have changed during the login.
   */
  async issueCode(
    session: string,
    target: { clientId: string; returnTo: string; codeChallenge: string; state?: string },
  ): Promise<string> {
    const request = readAppLoginRequest({
      code_challenge: target.codeChallenge,
      code_challenge_method: 'S256',
      state: target.state,
    });
    const user = await this.sessions.resolve(session);
    const app = await this.applications.findApplication(target.clientId);
    if (!app || !returnsTo(app, target.returnTo)) throw refused();
    const now = this.clock.now();
    const code = loginCodes.generate();
    await this.codes.insertAuthorizationCode({
      codeHash: code.hash,
      grantId: randomUUID(),
      clientId: app.clientId,
      userId: user.id,
      redirectUri: target.returnTo,
      scopes: app.declaredScopes,
      codeChallenge: request.codeChallenge,
      codeChallengeMethod: 'login-code',
      createdAt: now,
      expiresAt: new Date(now.getTime() + LOGIN_CODE_LIFETIME_SECONDS * 1000),
      consumedAt: null,
    });
    return redirectUriWithParameters(target.returnTo, { code: code.value, state: request.state });
  }
}
