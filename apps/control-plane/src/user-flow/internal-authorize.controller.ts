import { Body, Controller, Header, HttpCode, Post, UseFilters, UseGuards } from '@nestjs/common';
import { ConsentService } from '@platform/domain';
import { InternalGuard } from '../internal/internal.guard';
import { AuthorizationRequestErrorFilter } from './authorization-request-error.filter';
import { AuthorizationDecisionDto, AuthorizationRequestDto, toConsentPromptResponse } from './dto';

/** The authorization endpoint's decisions; the backend renders the pages around them. */
@Controller('internal/v1/authorize')
@UseGuards(InternalGuard)
@UseFilters(AuthorizationRequestErrorFilter)
export class InternalAuthorizeController {
  constructor(private readonly consent: ConsentService) {}

  /** Before the user is asked to log in: is this a request the client may make? */
  @Post('check')
  @HttpCode(200)
  async check(@Body() body: AuthorizationRequestDto) {
    return toConsentPromptResponse(await this.consent.check(body));
  }

  /** The user's answer on the consent screen: where to send the browser. */
  @Post('decision')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  async decision(@Body() { session, approved, ...request }: AuthorizationDecisionDto) {
    return { redirect_to: await this.consent.decide({ request, session, approved }) };
  }
}
