import { Controller, Get, Post, Req, Res, UseFilters } from '@nestjs/common';
import type { PlatformRequest } from '@platform/http';
import type { FastifyReply } from 'fastify';
import { BrowserErrorFilter } from '../browser/browser-error.filter';
import { BrowserCookies } from '../browser/cookies';
import { consentPage } from '../browser/pages';
import { formFields, sendPage, sendRedirect } from '../browser/respond';
import { queryOf, readAuthorizationRequest } from './authorization-request';
import { type AuthorizeOutcome, AuthorizeService } from './authorize.service';

/** The authorization endpoint (RFC 6749 3.1) and its consent screen, server-rendered. */
@Controller('oauth/authorize')
@UseFilters(BrowserErrorFilter)
export class AuthorizeController {
  constructor(
    private readonly authorize: AuthorizeService,
    private readonly cookies: BrowserCookies,
  ) {}

  @Get()
  async begin(@Req() request: PlatformRequest, @Res() reply: FastifyReply): Promise<void> {
    const outcome = await this.authorize.begin(
      readAuthorizationRequest(queryOf(request.url)),
      this.cookies.session(request),
    );
    await this.send(reply, outcome, 302);
  }

  @Post('decision')
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
