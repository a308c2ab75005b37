import { Body, Controller, Header, HttpCode, Post, UseFilters } from '@nestjs/common';
import { ConsentService } from '@platform/domain';
import { AuthorizationRequestErrorFilter } from './authorization-request-error.filter';
import { AuthorizationDecisionDto, AuthorizationRequestDto, toConsentPromptResponse } from './dto';
import { InternalRoute } from '../platform/route-authority';

/** The authorization endpoint's decisions; the backend renders the pages around them. */
@Controller('internal/v1/authorize')
@InternalRoute()
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
