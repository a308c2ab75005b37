import { Body, Controller, Header, Headers, Req } from '@nestjs/common';
import {
  type DeviceAuthorizationResponseDto,
  type DeviceDecidedDto,
  DeviceDecisionDto,
  type DevicePromptDto,
  DeviceUserCodeDto,
  INTERNAL_DEVICE_OPERATIONS,
} from '@platform/contract';
import {
  DeviceAuthorizationEndpoint,
  DeviceVerification,
  OAuthError,
  parseOAuthForm,
} from '@platform/domain';
import { mediaType, type PlatformRequest } from '@platform/http';
import { metrics } from '@platform/telemetry';
import { Implements } from '../platform/implements';

/**
 * The device flow (RFC 8628): the device authorization request the backend relays, and the
 * verification page's decisions (the backend renders the pages around them).
 */
@Controller()
export class InternalDeviceController {
  constructor(
    private readonly endpoint: DeviceAuthorizationEndpoint,
    private readonly verification: DeviceVerification,
  ) {}

  @Implements(INTERNAL_DEVICE_OPERATIONS.authorize)
  @Header('Cache-Control', 'no-store')
  async authorize(
    @Req() request: PlatformRequest,
    @Headers('authorization') authorization?: string,
  ): Promise<DeviceAuthorizationResponseDto> {
    if (mediaType(request) !== 'application/x-www-form-urlencoded') {
      throw new OAuthError('invalid_request', 'the body must be application/x-www-form-urlencoded');
    }
    try {
      return await this.endpoint.handle(parseOAuthForm(request.rawBody ?? ''), authorization);
    } catch (error) {
      if (error instanceof OAuthError) metrics.tokenRequestsRefused.labels(error.code).inc();
      throw error;
    }
  }

  @Implements(INTERNAL_DEVICE_OPERATIONS.check)
  @Header('Cache-Control', 'no-store')
  async check(@Body() { session, user_code }: DeviceUserCodeDto): Promise<DevicePromptDto> {
    const prompt = await this.verification.check(session, user_code);
    return {
      client_id: prompt.client.clientId,
      client_name: prompt.client.name,
      user_code: prompt.userCode,
      scopes: prompt.scopes,
      user: { name: prompt.user.name, email: prompt.user.email },
    };
  }

  @Implements(INTERNAL_DEVICE_OPERATIONS.decision)
  @Header('Cache-Control', 'no-store')
  async decision(@Body() { session, user_code, approved }: DeviceDecisionDto): Promise<DeviceDecidedDto> {
    return { status: await this.verification.decide(session, user_code, approved) };
  }
}
