import { applyDecorators, Controller, Get, Query, Res, UseFilters } from '@nestjs/common';
import { DomainError, readAppLoginRequest } from '@platform/domain';
import type { FastifyReply } from 'fastify';
import { BrowserErrorFilter } from '../browser/browser-error.filter';
import { BrowserCookies } from '../browser/cookies';
import { sendRedirect } from '../browser/respond';
import { MAX_RETURN_TO_LENGTH } from '../browser/return-to';
import { AppLoginClient } from '../clients/app-login.client';
import { LoginService } from '../login/login.service';
import { ApiQuery } from '@nestjs/swagger';
import { BrowserOperation, Page, Redirects } from '@platform/contract';

const LOGIN_PARAMETERS: Array<[string, boolean, string]> = [
  ['return_to', true, 'The app’s callback URL, a registered redirect URI.'],
  ['code_challenge', true, 'base64url(SHA-256(code_verifier)), 43 characters; required of every app (PKCE).'],
  ['code_challenge_method', true, 'Only `S256`.'],
  ['state', false, 'Anti-forgery value (1 to 512 printable ASCII characters), echoed to `return_to`.'],
];
const LoginParameters = () =>
  applyDecorators(
    ...LOGIN_PARAMETERS.map(([name, required, description]) =>
      ApiQuery({ name, required, description, type: 'string' }),
    ),
  );

/**
 * `GET /api/v1/auth/oidc/login?return_to=<app callback>&code_challenge=...&code_challenge_method=S256&state=...`:
 * the app login. `return_to` must be exactly a registered redirect URI of one app (the control
 * plane checks), otherwise a 400 page and no redirect. The identity-provider round trip is the
 * browser login's (`/auth/oidc/callback`); the app's challenge and state travel sealed in the
 * login cookie, so they come back only to this browser, which is then sent to
 * `return_to?code=<login code>&state=<state>`.
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
        '1. the app sends the browser here with `return_to` (its callback URL), its PKCE `code_challenge` (`code_challenge_method=S256`, required of every app) and a `state` bound to the browser’s session;',
        '2. after the identity provider (callback `/auth/oidc/callback`), the backend redirects the browser to `return_to?code=<one-time code>&state=<state>` (60 s, single use, stored hashed);',
        '3. the app checks `state` and swaps the code server-to-server at `POST /api/v1/auth/exchange` with its `codeVerifier` (the path and body the specification leaves "not shown").',
        '',
        '`return_to` must equal a registered redirect URI of exactly one app; anything else, and a missing or malformed challenge or state, is a **400** page, never a redirect (no open redirect).',
      ].join('\n'),
    },
    { session: 'none' },
  )
  @LoginParameters()
  @Redirects(302, 'To the identity provider.')
  @Page(
    400,
    'Error page: `return_to` is not a registered redirect URI of exactly one app, or no valid PKCE challenge or state.',
  )
  async start(@Query() query: Record<string, unknown>, @Res() reply: FastifyReply): Promise<void> {
    const returnTo = query.return_to;
    if (typeof returnTo !== 'string' || returnTo === '' || returnTo.length > MAX_RETURN_TO_LENGTH) {
      throw new DomainError(
        'validation_failed',
        'return_to is required: the URL of your application callback, as registered.',
      );
    }
    const request = readAppLoginRequest(query);
    const target = await this.appLogin.target(returnTo);
    const app = { clientId: target.clientId, ...request };
    const { authorizationUrl, sealedTransaction } = await this.login.start(target.returnTo, app);
    this.cookies.setLoginTransaction(reply, sealedTransaction);
    await sendRedirect(reply, 302, authorizationUrl);
  }
}
