import { Injectable, Logger } from '@nestjs/common';
import { DomainError } from '@platform/domain';
import { CsrfTokens } from '../browser/csrf';
import type { AppLoginTransaction } from '../clients/app-login.client';
import { type NewSession, SessionsClient } from '../clients/sessions.client';
import { IdentityProviderClient, type LoginHints } from './identity-provider.client';
import { LoginTransactions } from './login-transactions';

/**
 * Login through the identity provider: the transaction leaves sealed in a cookie, comes back
 * at the callback, the code is exchanged server-side, and the control plane opens a session.
 */
@Injectable()
export class LoginService {
  private readonly logger = new Logger(LoginService.name);

  constructor(
    private readonly identityProvider: IdentityProviderClient,
    private readonly transactions: LoginTransactions,
    private readonly sessions: SessionsClient,
    private readonly csrf: CsrfTokens,
  ) {}

  /**
   * `returnTo` is a path on this server, or, with `app` (the app login), the app's registered
   * callback, already checked by the control plane.
   */
  async start(
    returnTo: string,
    app?: AppLoginTransaction,
    hints: LoginHints = {},
  ): Promise<{ authorizationUrl: string; sealedTransaction: string }> {
    const { authorizationUrl, transaction } = await this.identityProvider.startLogin(returnTo, app, hints);
    return {
      authorizationUrl: authorizationUrl.href,
      sealedTransaction: this.transactions.seal(transaction),
    };
  }

  async finish(
    callbackUrl: URL,
    sealedTransaction: string | undefined,
  ): Promise<{ session: NewSession; returnTo: string; app?: AppLoginTransaction }> {
    const transaction = this.transactions.open(sealedTransaction);
    if (transaction === undefined) {
      throw new DomainError(
        'validation_failed',
        'This sign-in has expired or was started in another browser. Please start again from the application.',
      );
    }
    const identity = await this.identityProvider.finishLogin(callbackUrl, transaction);
    const session = await this.sessions.create(identity);
    this.logger.log(`signed in: user ${session.user.id} of tenant ${session.user.tenant}`);
    return {
      session,
      returnTo: transaction.returnTo,
      ...(transaction.app !== undefined && { app: transaction.app }),
    };
  }

  /** Ends the browser session; a session cookie without its CSRF token is refused (403). */
  async logout(session: string | undefined, csrfToken: unknown): Promise<void> {
    if (session === undefined) return;
    if (!this.csrf.matches(session, csrfToken)) {
      throw new DomainError(
        'forbidden',
        'This sign-out could not be verified: its security token is missing or does not belong to your session.',
      );
    }
    await this.sessions.end(session);
    this.logger.log(`signed out`);
  }
}
