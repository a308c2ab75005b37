import type { Application } from '../application';
import type { Clock } from '../clock';
import { DomainError } from '../errors';
import { redirectUriWithParameters } from '../registry/redirect-uri';
import type { SessionService } from '../sessions/session.service';
import type { ApplicationStore, AuthorizationCodeStore } from '../storage';
import { loginCodes } from '../tokens/opaque-token';
import { randomUUID } from 'node:crypto';

/** A login code lives as long as an authorization code: 60 s, single use. */
export const LOGIN_CODE_LIFETIME_SECONDS = 60;

const PAGE_SIZE = 500;

/** Where the app login sends the browser back to: one app's registered callback. */
export interface AppLoginTarget {
  clientId: string;
  clientName: string;
  returnTo: string;
}

const refused = (): DomainError =>
  new DomainError(
    'validation_failed',
    'return_to is not the registered callback of an application. The application must send its exact redirect URI.',
  );

/** Apps that sign users in: every type but `service`, which acts as itself. */
const signsUsersIn = (app: Application): boolean => app.appType !== 'service';

/**
 * The app login of the user-forwarding model (docs/internal-api.md): `return_to` is accepted
 * only when it equals a registered redirect URI of exactly one app, so the login can never be
 * an open redirect; after the identity provider's login, the browser goes back there with a
 * one-time login code, never with a token.
 */
export class AppLoginService {
  constructor(
    private readonly applications: Pick<ApplicationStore, 'findApplication' | 'listApplications'>,
    private readonly sessions: Pick<SessionService, 'resolve'>,
    private readonly codes: Pick<AuthorizationCodeStore, 'insertAuthorizationCode'>,
    private readonly clock: Clock,
  ) {}

  /** The app whose callback `returnTo` is; validation_failed unless exactly one app registered it. */
  async target(returnTo: string): Promise<AppLoginTarget> {
    if (returnTo === '') throw refused();
    const matches: Application[] = [];
    let after: string | undefined;
    do {
      const page = await this.applications.listApplications({ after, limit: PAGE_SIZE });
      matches.push(...page.items.filter((app) => signsUsersIn(app) && app.redirectUris.includes(returnTo)));
      after = page.nextAfter ?? undefined;
    } while (after !== undefined && matches.length < 2);
    if (matches.length !== 1) throw refused();
    return { clientId: matches[0].clientId, clientName: matches[0].name, returnTo };
  }

  /**
   * After the login: a one-time code for the app, bound to the user, the app and its callback,
   * carrying every scope the app declares. Answers the URL to send the browser to. The target
   * is checked again, since the app may have changed during the login.
   */
  async issueCode(session: string, target: { clientId: string; returnTo: string }): Promise<string> {
    const user = await this.sessions.resolve(session);
    const app = await this.applications.findApplication(target.clientId);
    if (!app || !signsUsersIn(app) || !app.redirectUris.includes(target.returnTo)) throw refused();
    const now = this.clock.now();
    const code = loginCodes.generate();
    await this.codes.insertAuthorizationCode({
      codeHash: code.hash,
      grantId: randomUUID(),
      clientId: app.clientId,
      userId: user.id,
      redirectUri: target.returnTo,
      scopes: app.declaredScopes,
      codeChallenge: '',
      codeChallengeMethod: 'login-code',
      createdAt: now,
      expiresAt: new Date(now.getTime() + LOGIN_CODE_LIFETIME_SECONDS * 1000),
      consumedAt: null,
    });
    return redirectUriWithParameters(target.returnTo, { code: code.value });
  }
}
