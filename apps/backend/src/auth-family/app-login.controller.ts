import { Controller, Get, Query, Res, UseFilters } from '@nestjs/common';
import { DomainError } from '@platform/domain';
import type { FastifyReply } from 'fastify';
import { BrowserErrorFilter } from '../browser/browser-error.filter';
import { BrowserCookies } from '../browser/cookies';
import { sendRedirect } from '../browser/respond';
import { MAX_RETURN_TO_LENGTH } from '../browser/return-to';
import { AppLoginClient } from '../clients/app-login.client';
import { LoginService } from '../login/login.service';
import { ApiQuery } from '@nestjs/swagger';
import { BrowserOperation, Page, Redirects } from '@platform/contract';

/**
 * `GET /api/v1/auth/oidc/login?return_to=<app callback>`: the app login. `return_to` must be
 * exactly a registered redirect URI of one app (the control plane checks), otherwise a 400 page
 * and no redirect. The identity-provider round trip is the browser login's
 * (`/auth/oidc/callback`), which then sends the browser to `return_to?code=<login code>`.
 */
@Controller('api/v1/auth/oidc')
@UseFilters(BrowserErrorFilter)
export class AppLoginController {
  constructor(
    private readonly appLogin: AppLoginClient,
    private readonly login: LoginService,
    private readonly cookies: BrowserCookies,
  ) {}

  @Get('login')
  @BrowserOperation(
    {
      id: 'appLogin',
      tag: 'App login family',
      summary: 'Start an app’s user login',
      description: [
        'Login flow of the user-forwarding model:',
        '1. the app sends the browser here with `return_to` (its callback URL);',
        '2. after the identity provider (callback `/auth/oidc/callback`), the backend redirects the browser to `return_to?code=<one-time code>` (60 s, single use, stored hashed);',
        '3. the app swaps the code server-to-server at `POST /api/v1/auth/exchange` (the path and body the specification leaves "not shown").',
        '',
        '`return_to` must equal a registered redirect URI of exactly one app; anything else is a **400** page, never a redirect (no open redirect).',
      ].join('\n'),
    },
    { session: 'none' },
  )
  @ApiQuery({
    name: 'return_to',
    required: true,
    type: 'string',
    description: 'The app’s callback URL, a registered redirect URI.',
  })
  @Redirects(302, 'To the identity provider.')
  @Page(400, 'Error page: `return_to` is not a registered redirect URI of exactly one app.')
  async start(@Query('return_to') returnTo: unknown, @Res() reply: FastifyReply): Promise<void> {
    if (typeof returnTo !== 'string' || returnTo === '' || returnTo.length > MAX_RETURN_TO_LENGTH) {
      throw new DomainError(
        'validation_failed',
        'return_to is required: the URL of your application callback, as registered.',
      );
    }
    const target = await this.appLogin.target(returnTo);
    const { authorizationUrl, sealedTransaction } = await this.login.start(target.returnTo, target.clientId);
    this.cookies.setLoginTransaction(reply, sealedTransaction);
    await sendRedirect(reply, 302, authorizationUrl);
  }
}
