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
import { ApiQuery } from '@nestjs/swagger';
import { BrowserForm, BrowserOperation, LogoutFormDto, Page, Redirects } from '@platform/contract';

const BAD_REQUEST_PAGE = 'Error page: the request cannot be processed, and the browser is not sent anywhere.';

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

  @Get('login')
  @BrowserOperation(
    {
      id: 'browserLogin',
      tag: 'User login and consent',
      summary: 'Browser sign-in through the identity provider',
      description:
        'Starts the OpenID Connect login (authorization code with PKCE, state and nonce sealed in a short-lived cookie) and **302**s to the identity provider. `return_to` must be a path on this server (default `/`), such as `/oauth/authorize?...`; anything else is a **400** page, never followed. No identity provider configured or reachable: **503** page.',
    },
    { session: 'none' },
  )
  @ApiQuery({
    name: 'return_to',
    required: false,
    type: 'string',
    description: 'A path on this server to come back to after sign-in.',
  })
  @ApiQuery({
    name: 'prompt',
    required: false,
    type: 'string',
    description: '`login`: the identity provider is asked to authenticate the user again (OpenID Connect `prompt=login`, `max_age`). Other values are ignored.',
  })
  @ApiQuery({
    name: 'login_hint',
    required: false,
    type: 'string',
    description: 'Passed on to the identity provider as its `login_hint` (at most 512 characters; longer is ignored).',
  })
  @Redirects(302, 'To the identity provider.')
  @Page(400, BAD_REQUEST_PAGE)
  async start(
    @Query('return_to') returnTo: unknown,
    @Query('prompt') prompt: unknown,
    @Query('login_hint') loginHint: unknown,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const target = returnTo === undefined ? '/' : safeReturnTo(returnTo);
    if (target === undefined) {
      throw new DomainError(
        'validation_failed',
        'return_to must be a path on this server, such as /oauth/authorize?...',
      );
    }
    const { authorizationUrl, sealedTransaction } = await this.login.start(target, undefined, {
      forceLogin: prompt === 'login',
      ...(typeof loginHint === 'string' && loginHint.length <= 512 && { loginHint }),
    });
    this.cookies.setLoginTransaction(reply, sealedTransaction);
    await sendRedirect(reply, 302, authorizationUrl);
  }

  /**
   * The identity provider's redirect (`{ISSUER}/auth/oidc/callback`). A login started by an app
   * (`/api/v1/auth/oidc/login`) goes back to the app's callback with a one-time login code.
   */
  @Get('oidc/callback')
  @BrowserOperation(
    {
      id: 'oidcCallback',
      tag: 'User login and consent',
      summary: 'The identity provider’s callback',
      description:
        'Where the identity provider sends the browser back (`{ISSUER}/auth/oidc/callback`). The backend exchanges the provider’s code server-side, opens a session (cookie, 8 hours) and **302**s to the `return_to` of the login. For the app login family (`/api/v1/auth/oidc/login`) it **302**s instead to the app’s `return_to` with a one-time `code` (60 s, bound to the app’s PKCE challenge) and the app’s `state`; the token never appears in a browser URL. An expired or foreign login transaction, or an answer that cannot be verified: **400** page; the provider refused the sign-in: **403** page.',
    },
    { session: 'none' },
  )
  @ApiQuery({
    name: 'code',
    required: false,
    type: 'string',
    description: 'The identity provider’s authorization code.',
  })
  @ApiQuery({ name: 'state', required: false, type: 'string', description: 'The login transaction’s state.' })
  @ApiQuery({
    name: 'iss',
    required: false,
    type: 'string',
    description: 'The identity provider’s issuer (RFC 9207).',
  })
  @ApiQuery({
    name: 'error',
    required: false,
    type: 'string',
    description: 'The identity provider’s error, when it refused.',
  })
  @ApiQuery({ name: 'error_description', required: false, type: 'string' })
  @Redirects(302, 'Signed in: to `return_to` (or to the app with a one-time code).')
  @Page(400, BAD_REQUEST_PAGE)
  @Page(403, 'Error page: the identity provider refused the sign-in.')
  async callback(@Req() request: PlatformRequest, @Res() reply: FastifyReply): Promise<void> {
    const sealed = this.cookies.loginTransaction(request);
    this.cookies.clearLoginTransaction(reply); // single use, whatever happens next
    const callbackUrl = new URL(`${this.config.issuer}${request.url}`);
    const { session, returnTo, app } = await this.login.finish(callbackUrl, sealed);
    const maxAge = (session.expiresAt.getTime() - Date.now()) / 1000;
    this.cookies.setSession(reply, session.session, maxAge);
    if (app === undefined) return sendRedirect(reply, 302, returnTo);
    await sendRedirect(reply, 302, await this.appLogin.issueCode(session.session, { ...app, returnTo }));
  }

  /** Form post with `csrf_token` (and an optional `return_to` path to go to afterwards). */
  @Post('logout')
  @BrowserOperation(
    {
      id: 'browserLogout',
      tag: 'User login and consent',
      summary: 'Browser sign-out',
      description:
        'Ends the browser session (form post with the page’s `csrf_token`; a session cookie without it is a **403** page) and clears the cookie. With a `return_to` path: **303** there; otherwise **200** a signed-out page. Without a session it just answers.',
    },
    { session: 'optional' },
  )
  @BrowserForm(LogoutFormDto)
  @Page(200, 'Signed out.')
  @Redirects(303, 'To `return_to`.')
  async logout(@Req() request: PlatformRequest, @Res() reply: FastifyReply): Promise<void> {
    const form = formFields(request);
    await this.login.logout(this.cookies.session(request), form.get('csrf_token') ?? undefined);
    this.cookies.clearSession(reply);
    const returnTo = safeReturnTo(form.get('return_to') ?? undefined);
    if (returnTo !== undefined) return sendRedirect(reply, 303, returnTo);
    await sendPage(reply, 200, signedOutPage());
  }
}
