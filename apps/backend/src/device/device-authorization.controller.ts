import { Controller, Post, Req, Res } from '@nestjs/common';
import {
  Answers,
  DeviceAuthorizationRequestDto,
  DeviceAuthorizationResponseDto,
  INTERNAL_DEVICE_OPERATIONS,
  internalPathOf,
  NO_STORE,
  OAuthOperation,
  OAuthRefusal,
  RateLimited,
} from '@platform/contract';
import type { PlatformRequest } from '@platform/http';
import type { FastifyReply } from 'fastify';
import type { UpstreamResponse } from '../clients/control-plane.client';
import { ControlPlaneRelay } from '../forwarding/control-plane-relay';
import { ClientRateLimits } from '../oauth/client-rate-limits';
import { noStore } from '../oauth/oauth.controller';

/**
 * RFC 8628 section 3.1: the device authorization endpoint. The control plane authenticates the
 * client and issues the codes; the edge passes the form and Authorization header on, with the
 * client limits of the token endpoint.
 */
@Controller('v1')
export class DeviceAuthorizationController {
  constructor(
    private readonly relay: ControlPlaneRelay,
    private readonly limits: ClientRateLimits,
  ) {}

  @Post('oauth/device_authorization')
  @OAuthOperation(
    {
      id: 'authorizeDevice',
      tag: 'OAuth',
      summary: 'Device authorization endpoint (RFC 8628)',
      description: [
        'Starts the device flow for a `cli` app: answers a `device_code` for the device to poll the token endpoint with, and a `user_code` for the user to enter at `verification_uri` (`/device`), both for 600 s. The client authenticates as at the token endpoint (an app holding a secret with it, Basic or form; one without by `client_id`). docs/tokens.md, "Device flow".',
        '',
        '- an app type other than `cli`: **400** `unauthorized_client`;',
        '- a scope the app did not declare, or a service-only scope: **400** `invalid_scope`;',
        '- a body that is not form-encoded, a repeated parameter, two authentication methods: **400** `invalid_request`.',
      ].join('\n'),
    },
    DeviceAuthorizationRequestDto,
  )
  @Answers(200, DeviceAuthorizationResponseDto, 'The device and user codes.', { headers: NO_STORE })
  @OAuthRefusal(400, 'A refused request, by RFC 6749 error code.', {
    unauthorizedClient: ['unauthorized_client', 'a web app may not use the device flow'],
    invalidScope: ['invalid_scope', 'scope not declared by the client: files.write'],
    notForm: ['invalid_request', 'the body must be application/x-www-form-urlencoded'],
  })
  @RateLimited()
  async authorize(@Req() request: PlatformRequest, @Res() reply: FastifyReply): Promise<void> {
    if (!(await this.limits.admit(request, reply))) return;
    return this.relay.forward(request, reply, {
      to: `/${internalPathOf(INTERNAL_DEVICE_OPERATIONS.authorize)}`,
      body: 'form',
      then: (response: UpstreamResponse) => {
        noStore(response);
        return this.limits.settle(request, response.status);
      },
    });
  }
}
