import { Body, Controller, Header } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import {
  INTERNAL_SAML_OPERATIONS,
  SAML_RESPONSE_MAX_LENGTH,
  SamlAssertionConsumerDto,
  SamlLoginStartDto,
} from '@platform/contract';
import { SamlSignIn } from '@platform/domain';
import { Implements } from '../platform/implements';
import { toSessionResponse } from '../user-flow/dto';

/**
 * The SAML sign-in's internal routes (docs/saml.md): the backend asks for the AuthnRequest and
 * hands over the Response the browser posted to the ACS, with the request ID its sealed cookie
 * kept; everything is judged here.
 */
@Controller()
export class InternalSamlController {
  constructor(private readonly signIn: SamlSignIn) {}

  @Implements(INTERNAL_SAML_OPERATIONS.start)
  @Header('Cache-Control', 'no-store')
  async start(@Body() body: SamlLoginStartDto) {
    const { redirectUrl, requestId } = await this.signIn.start(body.tenant);
    return { redirect_url: redirectUrl, request_id: requestId };
  }

  @Implements(INTERNAL_SAML_OPERATIONS.finish)
  @RouteConfig({ bodyLimit: SAML_RESPONSE_MAX_LENGTH + 4096 })
  @Header('Cache-Control', 'no-store')
  async finish(@Body() body: SamlAssertionConsumerDto) {
    return toSessionResponse(
      await this.signIn.finish(body.tenant, body.saml_response, body.request_id ?? null),
    );
  }
}
