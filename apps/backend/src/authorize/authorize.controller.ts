import { applyDecorators, Controller, Get, Post, Req, Res, UseFilters } from '@nestjs/common';
import type { PlatformRequest } from '@platform/http';
import type { FastifyReply } from 'fastify';
import { BrowserErrorFilter } from '../browser/browser-error.filter';
import { BrowserCookies } from '../browser/cookies';
import { consentPage } from '../browser/pages';
import { formFields, sendPage, sendRedirect } from '../browser/respond';
import { queryOf, readAuthorizationRequest } from './authorization-request';
import { type AuthorizeOutcome, AuthorizeService } from './authorize.service';
import { ApiQuery } from '@nestjs/swagger';
import { BrowserForm, BrowserOperation, ConsentDecisionDto, Page, Redirects } from '@platform/contract';

const AUTHORIZATION_PARAMETERS: Array<[string, boolean, string]> = [
  ['client_id', true, 'The registered client.'],
  ['response_type', true, 'Only `code`.'],
  ['redirect_uri', true, 'Exactly one of the app’s registered redirect URIs.'],
  ['scope', false, 'Space-separated; omitted means every declared scope.'],
  ['code_challenge', true, 'base64url(SHA-256(code_verifier)); required (PKCE).'],
  ['code_challenge_method', true, 'Only `S256`.'],
  ['state', false, 'Anti-forgery value, echoed to the redirect URI.'],
];
const AuthorizationParameters = () =>
  applyDecorators(
    ...AUTHORIZATION_PARAMETERS.map(([name, required, description]) =>
      ApiQuery({ name, required, description, type: 'string' }),
    ),
  );

/** The authorization endpoint (RFC 6749 3.1) and its consent screen, server-rendered. */
@Controller('oauth/authorize')
@UseFilters(BrowserErrorFilter)
export class AuthorizeController {
  constructor(
    private readonly authorize: AuthorizeService,
    private readonly cookies: BrowserCookies,
  ) {}

  @Get()
  @BrowserOperation(
    {
      id: 'authorize',
      tag: 'User login and consent',
      summary: 'Authorization endpoint (RFC 6749 section 3.1)',
      description: [
        'A browser redirect. The client, the exact redirect URI, `response_type`, PKCE and the scopes are checked before anyone is asked to log in.',
        '- Unknown client, unregistered redirect URI (or a `service` app), or `client_id`/`redirect_uri` repeated: **400** error page; the browser is never redirected.',
        '- Any other fault (`unsupported_response_type`, missing or non-S256 challenge as `invalid_request`, undeclared scope as `invalid_scope`, `unauthorized_client`): **302** to `redirect_uri` with `error`, `error_description` and `state`.',
        '- No valid session: **302** to `/auth/login?return_to=<this request>`.',
        '- Otherwise: **200** the consent page with buttons "Approve" and "Deny" (posting to `/oauth/authorize/decision`).',
      ].join('\n'),
    },
    { session: 'optional' },
  )
  @AuthorizationParameters()
  @Page(200, 'The consent page.')
  @Redirects(302, 'To the login, or back to the client with an error.')
  @Page(400, 'Error page: unknown client or unregistered redirect URI; the browser is not sent anywhere.')
  async begin(@Req() request: PlatformRequest, @Res() reply: FastifyReply): Promise<void> {
    const outcome = await this.authorize.begin(
      readAuthorizationRequest(queryOf(request.url)),
      this.cookies.session(request),
    );
    await this.send(reply, outcome, 302);
  }

  @Post('decision')
  @BrowserOperation(
    {
      id: 'authorizeDecision',
      tag: 'User login and consent',
      summary: 'The consent form’s answer',
      description:
        'Posted by the consent page (session cookie plus its CSRF token). **303** (the browser follows with a GET and never re-posts) to `redirect_uri` with `code` and `state` on approval or `error=access_denied` and `state` on denial; **303** to the login when the session expired meanwhile. A missing or foreign CSRF token: **403** page, nothing authorized; a `decision` other than approve/deny: **400** page.',
    },
    { session: 'required' },
  )
  @BrowserForm(ConsentDecisionDto)
  @Redirects(303, 'Back to the client (code or access_denied), or to the login.')
  async decide(@Req() request: PlatformRequest, @Res() reply: FastifyReply): Promise<void> {
    const form = formFields(request);
    const outcome = await this.authorize.decide(
      readAuthorizationRequest(form),
      this.cookies.session(request),
      form.get('csrf_token') ?? undefined,
      form.get('decision') ?? undefined,
    );
    // 303: the browser follows with a GET and never re-posts the form (RFC 9700 4.12).
    await this.send(reply, outcome, 303);
  }

  private async send(
    reply: FastifyReply,
    outcome: AuthorizeOutcome,
    redirectStatus: 302 | 303,
  ): Promise<void> {
    switch (outcome.kind) {
      case 'consent':
        return sendPage(reply, 200, consentPage(outcome.view), outcome.formActions);
      case 'login':
        if (outcome.sessionEnded) this.cookies.clearSession(reply);
        return sendRedirect(reply, redirectStatus, outcome.location);
      case 'redirect':
        return sendRedirect(reply, redirectStatus, outcome.location);
    }
  }
}
