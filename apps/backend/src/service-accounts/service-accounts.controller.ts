import { Controller, Post, Req, Res } from '@nestjs/common';
import type { PlatformRequest } from '@platform/http';
import type { FastifyReply } from 'fastify';
import { RequireAdmin } from '../auth/admin.guard';
import type { UpstreamResponse } from '../clients/control-plane.client';
import { ControlPlaneRelay } from '../forwarding/control-plane-relay';
import { ApiParam } from '@nestjs/swagger';
import {
  AdminOperation,
  Answers,
  JsonBody,
  Refuses,
  RegisterServiceAccountDto,
  RotatedSecretDto,
  ServiceAccountDto,
} from '@platform/contract';

/** A secret is shown once: no cache may keep it. */
const secretAnswer = (response: UpstreamResponse): void => {
  response.headers['cache-control'] = 'no-store';
};

/**
 * Service accounts (admin Bearer token): headless credentials that act as their app. The
 * control plane checks the admin token again, names the account and shows its secret once.
 */
@Controller('api/v1/apps')
@RequireAdmin()
export class ServiceAccountsController {
  constructor(private readonly relay: ControlPlaneRelay) {}

  @Post('register')
  @AdminOperation({
    id: 'registerServiceAccount',
    tag: 'Service accounts',
    summary: 'Register a service account',
    description:
      'The specification names only the body field `name`; decided: JSON `{name, declared_scopes?}` -> **201** `{client_id, client_secret, name, declared_scopes, app_type: "service", created_at}` with a generated `client_id` and the secret shown once. Admin Bearer token required.',
  })
  @JsonBody(RegisterServiceAccountDto)
  @Answers(201, ServiceAccountDto, 'Registered.')
  register(@Req() request: PlatformRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.relay.forward(request, reply, {
      to: '/api/v1/apps/register',
      body: 'json',
      then: secretAnswer,
    });
  }

  @Post(':app_id/credentials/rotate')
  @AdminOperation({
    id: 'rotateServiceAccountCredentials',
    tag: 'Service accounts',
    summary: 'Rotate a service account’s secret',
    description:
      'The response body is "not shown" in the specification; decided: the same as `rotate-secret`, **200** `{client_id, client_secret, rotated_at}`; the old secret stops working at once. No body. Admin Bearer token required.',
  })
  @ApiParam({ name: 'app_id', required: true, description: 'The `client_id`.' })
  @Answers(200, RotatedSecretDto, 'The new secret.')
  @Refuses(404, 'No application with this id.')
  @Refuses(409, 'An app without a secret.')
  rotate(@Req() request: PlatformRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.relay.forward(request, reply, {
      to: '/api/v1/apps/:app_id/rotate-secret',
      then: secretAnswer,
    });
  }
}
