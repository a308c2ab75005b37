import { Controller, Get, Inject, Post, Query, Req, Res, UseFilters } from '@nestjs/common';
import type { PlatformConfig } from '@platform/config';
import { DomainError } from '@platform/domain';
import type { PlatformRequest } from '@platform/http';
import type { FastifyReply } from 'fastify';
import { BrowserErrorFilter } from '../browser/browser-error.filter';
import { BrowserCookies } from '../browser/cookies';
import { signedOutPage } from '../browser/pages';
import { formFields, sendPage, sendRedirect } from '../browser/respond';
import { safeReturnTo } from '../browser/return-to';
import { AppLoginClient } from '../clients/app-login.client';
import { PLATFORM_CONFIG } from '../config';
import { LoginService } from './login.service';

/** Browser login through the identity provider, its callback, and logout. */
@Controller('auth')
@UseFilters(BrowserErrorFilter)
export class LoginController {
  constructor(
    private readonly login: LoginService,
    private readonly cookies: BrowserCookies,
    private readonly appLogin: AppLoginClient,
    @Inject(PLATFORM_CONFIG) private readonly config: PlatformConfig,
  ) {}

  /** `return_to`: a path on this server (default `/`); anything else is refused, never followed. */
  @Get('login')
  async start(@Query('return_to') returnTo: unknown, @Res() reply: FastifyReply): Promise<void> {
    const target = returnTo === undefined ? '/' : safeReturnTo(returnTo);
    if (target === undefined) {
      throw new DomainError(
        'validation_failed',
        'return_to must be a path on this server, such as /oauth/authorize?...',
      );
    }
    const { authorizationUrl, sealedTransaction } = await this.login.start(target);
    this.cookies.setLoginTransaction(reply, sealedTransaction);
    await sendRedirect(reply, 302, authorizationUrl);
  }

  /**
   * The identity provider's redirect (`{ISSUER}/auth/oidc/callback`). A login started by an app
   * (`/api/v1/auth/oidc/login`) goes back to the app's callback with a one-time login code.
   */
  @Get('oidc/callback')
  async callback(@Req() request: PlatformRequest, @Res() reply: FastifyReply): Promise<void> {
    const sealed = this.cookies.loginTransaction(request);
    this.cookies.clearLoginTransaction(reply); // single use, whatever happens next
    const callbackUrl = new URL(`${this.config.issuer}${request.url}`);
    const { session, returnTo, clientId } = await this.login.finish(callbackUrl, sealed);
    const maxAge = (session.expiresAt.getTime() - Date.now()) / 1000;
    this.cookies.setSession(reply, session.session, maxAge);
    if (clientId === undefined) return sendRedirect(reply, 302, returnTo);
    const target = { clientId, returnTo };
    await sendRedirect(reply, 302, await this.appLogin.issueCode(session.session, target));
  }

  /** Form post with `csrf_token` (and an optional `return_to` path to go to afterwards). */
  @Post('logout')
  async logout(@Req() request: PlatformRequest, @Res() reply: FastifyReply): Promise<void> {
    const form = formFields(request);
    await this.login.logout(this.cookies.session(request), form.get('csrf_token') ?? undefined);
    this.cookies.clearSession(reply);
    const returnTo = safeReturnTo(form.get('return_to') ?? undefined);
    if (returnTo !== undefined) return sendRedirect(reply, 303, returnTo);
    await sendPage(reply, 200, signedOutPage());
  }
}
