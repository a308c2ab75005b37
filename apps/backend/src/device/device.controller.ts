import { Controller, Get, Post, Req, Res, UseFilters } from '@nestjs/common';
import { ApiQuery } from '@nestjs/swagger';
import {
  BrowserForm,
  BrowserOperation,
  DeviceDecisionFormDto,
  DeviceUserCodeFormDto,
  Page,
  Redirects,
} from '@platform/contract';
import type { PlatformRequest } from '@platform/http';
import type { FastifyReply } from 'fastify';
import { BrowserErrorFilter } from '../browser/browser-error.filter';
import { BrowserCookies } from '../browser/cookies';
import { consentPage } from '../browser/pages';
import { formFields, sendPage, sendRedirect } from '../browser/respond';
import { deviceDecidedPage, userCodePage } from './device-pages';
import { type DeviceOutcome, DeviceVerificationService } from './device-verification.service';

const TAG = 'User login and consent';

/** The device flow's verification page (RFC 8628 section 3.3), server-rendered. */
@Controller('device')
@UseFilters(BrowserErrorFilter)
export class DeviceController {
  constructor(
    private readonly verification: DeviceVerificationService,
    private readonly cookies: BrowserCookies,
  ) {}

  @Get()
  @BrowserOperation(
    {
      id: 'deviceVerification',
      tag: TAG,
      summary: 'Device verification page (RFC 8628 section 3.3)',
      description:
        'Where the user enters the code a device shows (`verification_uri`); `?user_code=` fills it in (`verification_uri_complete`). Without a valid session: **302** to `/auth/login?return_to=<this page>`. Otherwise **200** the form, posting to `/device`.',
    },
    { session: 'optional' },
  )
  @ApiQuery({ name: 'user_code', required: false, type: 'string', description: 'The code to fill in.' })
  @Page(200, 'The form to enter the code.')
  @Redirects(302, 'To the login, coming back here.')
  @Page(400, 'Error page: a malformed query (a control character in it); the browser is not sent anywhere.')
  async page(@Req() request: PlatformRequest, @Res() reply: FastifyReply): Promise<void> {
    const query = new URL(request.url, 'http://device.invalid').searchParams;
    const outcome = this.verification.form(
      this.cookies.session(request),
      query.get('user_code') ?? undefined,
    );
    await this.send(reply, outcome, 302);
  }

  @Post()
  @BrowserOperation(
    {
      id: 'deviceEnterCode',
      tag: TAG,
      summary: 'The code entered on the verification page',
      description: [
        'Posted by the verification page (session cookie plus its CSRF token).',
        '- A pending code: **200** the consent page (the app, the scopes, the code to compare with the device), posting to `/device/decision`.',
        '- A mistyped, unknown, expired or already answered code: **400** the form again, saying so.',
        '- More than 5 codes from this session, or 20 from this address, in a minute (every code counts): **429** the form, saying how long to wait; nothing is looked up.',
        '- No valid session: **303** to the login. A missing or foreign CSRF token: **403** page.',
      ].join('\n'),
    },
    { session: 'required' },
  )
  @BrowserForm(DeviceUserCodeFormDto)
  @Page(200, 'The consent page.')
  @Page(429, 'The form: too many codes entered.')
  @Redirects(303, 'To the login, when the session expired.')
  async enter(@Req() request: PlatformRequest, @Res() reply: FastifyReply): Promise<void> {
    const form = formFields(request);
    const outcome = await this.verification.enter(
      this.cookies.session(request),
      form.get('csrf_token') ?? undefined,
      form.get('user_code') ?? undefined,
      request.ip,
    );
    await this.send(reply, outcome, 303);
  }

  @Post('decision')
  @BrowserOperation(
    {
      id: 'deviceDecision',
      tag: TAG,
      summary: 'The device consent page’s answer',
      description:
        'Posted by the device consent page, whose token binds the code to the session. **200** a page saying the device is connected (approved) or not (denied); the device learns it at its next poll. A code no longer pending: **400** the form again. A token that does not match the session and code: **403** page, nothing authorized; no valid session: **303** to the login.',
    },
    { session: 'required' },
  )
  @BrowserForm(DeviceDecisionFormDto)
  @Page(200, 'Approved or denied.')
  @Redirects(303, 'To the login, when the session expired.')
  async decide(@Req() request: PlatformRequest, @Res() reply: FastifyReply): Promise<void> {
    const form = formFields(request);
    const outcome = await this.verification.decide(
      this.cookies.session(request),
      form.get('csrf_token') ?? undefined,
      form.get('user_code') ?? undefined,
      form.get('decision') ?? undefined,
    );
    await this.send(reply, outcome, 303);
  }

  private async send(reply: FastifyReply, outcome: DeviceOutcome, redirectStatus: 302 | 303): Promise<void> {
    switch (outcome.kind) {
      case 'form':
        return sendPage(reply, outcome.status, userCodePage(outcome));
      case 'consent':
        return sendPage(reply, 200, consentPage(outcome.view));
      case 'decided':
        return sendPage(reply, 200, deviceDecidedPage(outcome.status));
      case 'login':
        if (outcome.sessionEnded) this.cookies.clearSession(reply);
        return sendRedirect(reply, redirectStatus, outcome.location);
    }
  }
}
