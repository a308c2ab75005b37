import { Controller, Post, Req, Res, UseGuards } from '@nestjs/common';
import type { PlatformRequest } from '@platform/http';
import type { FastifyReply } from 'fastify';
import { AdminGuard } from '../auth/admin.guard';
import type { UpstreamResponse } from '../clients/control-plane.client';
import { ControlPlaneRelay } from '../forwarding/control-plane-relay';

/** A secret is shown once: no cache may keep it. */
const secretAnswer = (response: UpstreamResponse): void => {
  response.headers['cache-control'] = 'no-store';
};

/**
 * Service accounts (admin Bearer token): headless credentials that act as their app. The
 * control plane checks the admin token again, names the account and shows its secret once.
 */
@Controller('api/v1/apps')
@UseGuards(AdminGuard)
export class ServiceAccountsController {
  constructor(private readonly relay: ControlPlaneRelay) {}

  /** JSON `{name, declared_scopes?}` -> 201 with a generated client_id and the secret. */
  @Post('register')
  register(@Req() request: PlatformRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.relay.forward(request, reply, { to: '/api/v1/apps/register', body: 'json', then: secretAnswer });
  }

  /** The new secret, shown once; the old one stops working at once. */
  @Post(':app_id/credentials/rotate')
  rotate(@Req() request: PlatformRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.relay.forward(request, reply, { to: '/api/v1/apps/:app_id/rotate-secret', then: secretAnswer });
  }
}
