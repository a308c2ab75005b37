import { applyDecorators, Controller, Get, Post, Req, Res, UseFilters } from '@nestjs/common';
import { ApiQuery } from '@nestjs/swagger';
import { BrowserForm, BrowserOperation, EndSessionRequestDto, Page, Redirects } from '@platform/contract';
import type { PlatformRequest } from '@platform/http';
import type { FastifyReply } from 'fastify';
import { queryOf } from '../authorize/authorization-request';
import { BrowserErrorFilter } from '../browser/browser-error.filter';
import { BrowserCookies } from '../browser/cookies';
import { signedOutPage } from '../browser/pages';
import { formFields, sendPage, sendRedirect } from '../browser/respond';
import { endSessionQuery, type EndSessionOutcome, EndSessionService } from './end-session.service';

const DESCRIPTION = [
  'OpenID Connect RP-Initiated Logout 1.0 (`end_session_endpoint`). Parameters `id_token_hint`, `client_id`, `post_logout_redirect_uri`, `state`, as a query (GET) or a form (POST).',
  '- An `id_token_hint` this platform did not issue (expired ones are accepted), a `client_id` that is not its audience or unknown, or a `post_logout_redirect_uri` the client did not register: **400** error page; the browser is never redirected.',
  '- A live session whose user and session the `id_token_hint` names: the session ends at once. Any other live session: **200** a confirmation page first ("Sign out" posts the request back with its `csrf_token`; a wrong token: **403** page).',
  '- Ending the session revokes the grants begun in it except `offline_access` ones, and sends a logout token to every client holding one that registered a `backchannel_logout_uri` (docs/openid-connect.md).',
  '- Then: to `post_logout_redirect_uri` with `state` (**302** after a GET, **303** after a POST), or **200** a signed-out page.',
].join('\n');

const QUERY: Array<[string, string]> = [
  ['id_token_hint', 'An ID token this platform issued to the client.'],
  ['client_id', 'The client; the audience of `id_token_hint` when both are sent.'],
  ['post_logout_redirect_uri', 'One of the client’s registered `post_logout_redirect_uris`.'],
  ['state', 'Echoed to `post_logout_redirect_uri`.'],
];
const EndSessionQuery = () =>
  applyDecorators(
    ...QUERY.map(([name, description]) => ApiQuery({ name, description, required: false, type: 'string' })),
  );

/** The end-session endpoint (OpenID Connect RP-Initiated Logout 1.0), server-rendered. */
@Controller('oauth/logout')
@UseFilters(BrowserErrorFilter)
export class EndSessionController {
  constructor(
    private readonly endSession: EndSessionService,
    private readonly cookies: BrowserCookies,
  ) {}

  @Get()
  @BrowserOperation(
    {
      id: 'endSession',
      tag: 'User login and consent',
      summary: 'End-session endpoint',
      description: DESCRIPTION,
    },
    { session: 'optional' },
  )
  @EndSessionQuery()
  @Page(200, 'The confirmation page, or the signed-out page.')
  @Redirects(302, 'To the registered `post_logout_redirect_uri`, with `state`.')
  @Page(400, 'Error page: the request is refused; the browser is not sent anywhere.')
  async get(@Req() request: PlatformRequest, @Res() reply: FastifyReply): Promise<void> {
    const session = this.cookies.session(request);
    const outcome = await this.endSession.handle(queryOf(request.url), session, undefined);
    await this.send(reply, outcome, session !== undefined, 302);
  }

  @Post()
  @BrowserOperation(
    {
      id: 'endSessionForm',
      tag: 'User login and consent',
      summary: 'End-session endpoint (form post)',
      description: `${DESCRIPTION}\n\nWith the confirmation page’s \`csrf_token\`, the post is the user’s confirmation.`,
    },
    { session: 'optional' },
  )
  @BrowserForm(EndSessionRequestDto, 'Error page: the request is refused; the browser is not sent anywhere.')
  @Page(200, 'The confirmation page, or the signed-out page.')
  @Redirects(
    303,
    'To the registered `post_logout_redirect_uri`, with `state`; or, for a post without the session cookie (a cross-site form post does not carry it), to the same request as a GET, which does.',
  )
  async post(@Req() request: PlatformRequest, @Res() reply: FastifyReply): Promise<void> {
    const form = formFields(request);
    const session = this.cookies.session(request);
    const csrfToken = form.get('csrf_token') ?? undefined;
    if (session === undefined && csrfToken === undefined) {
      // A client's cross-site form post carries no SameSite=Lax cookie: the same request as a
      // top-level GET does, so the session it means is found.
      return sendRedirect(reply, 303, `/oauth/logout?${endSessionQuery(form)}`);
    }
    const outcome = await this.endSession.handle(form, session, csrfToken);
    await this.send(reply, outcome, session !== undefined, 303);
  }

  private async send(
    reply: FastifyReply,
    outcome: EndSessionOutcome,
    hadCookie: boolean,
    redirectStatus: 302 | 303,
  ): Promise<void> {
    if (outcome.kind === 'confirm') return sendPage(reply, 200, outcome.page, outcome.formActions);
    if (hadCookie) this.cookies.clearSession(reply);
    if (outcome.redirectTo !== null) return sendRedirect(reply, redirectStatus, outcome.redirectTo);
    await sendPage(reply, 200, signedOutPage());
  }
}
