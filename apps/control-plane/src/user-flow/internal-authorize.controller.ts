import { Body, Controller, Header, UseFilters } from '@nestjs/common';
import {
  AuthorizationDecisionDto,
  AuthorizationRequestDto,
  INTERNAL_AUTHORIZE_OPERATIONS,
} from '@platform/contract';
import { ConsentService } from '@platform/domain';
import { AuthorizationRequestErrorFilter } from './authorization-request-error.filter';
import { toConsentPromptResponse } from './dto';
import { Implements } from '../platform/implements';

/** The authorization endpoint's decisions; the backend renders the pages around them. */
@Controller()
@UseFilters(AuthorizationRequestErrorFilter)
export class InternalAuthorizeController {
  constructor(private readonly consent: ConsentService) {}

  @Implements(INTERNAL_AUTHORIZE_OPERATIONS.check)
  async check(@Body() body: AuthorizationRequestDto) {
    return toConsentPromptResponse(await this.consent.check(body));
  }

  @Implements(INTERNAL_AUTHORIZE_OPERATIONS.decision)
  @Header('Cache-Control', 'no-store')
  async decision(@Body() { session, approved, ...request }: AuthorizationDecisionDto) {
    return { redirect_to: await this.consent.decide({ request, session, approved }) };
  }
}
