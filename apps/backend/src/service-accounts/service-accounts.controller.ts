import { Controller, Param, Post, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { AdminGuard } from '../auth/admin.guard';
import { ControlPlaneClient } from '../clients/control-plane.client';
import { type Caller, CurrentCaller, JsonBody } from '../http/caller';
import { relay } from '../http/relay';

/**
 * Service accounts (admin Bearer token): headless credentials that act as their app. The
 * control plane checks the admin token again, names the account and shows its secret once.
 */
@Controller('api/v1/apps')
@UseGuards(AdminGuard)
export class ServiceAccountsController {
  constructor(private readonly controlPlane: ControlPlaneClient) {}

  /** JSON `{name, declared_scopes?}` -> 201 with a generated client_id and the secret. */
  @Post('register')
  async register(
    @JsonBody() body: string,
    @CurrentCaller() caller: Caller,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const response = await this.controlPlane.request({
      method: 'POST',
      path: '/api/v1/apps/register',
      requestId: caller.requestId,
      authorization: caller.authorization,
      contentType: 'application/json',
      body,
    });
    response.headers['cache-control'] = 'no-store';
    await relay(reply, response);
  }

  /** The new secret, shown once; the old one stops working at once. */
  @Post(':app_id/credentials/rotate')
  async rotate(
    @Param('app_id') appId: string,
    @CurrentCaller() caller: Caller,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const response = await this.controlPlane.request({
      method: 'POST',
      path: `/api/v1/apps/${encodeURIComponent(appId)}/rotate-secret`,
      requestId: caller.requestId,
      authorization: caller.authorization,
    });
    response.headers['cache-control'] = 'no-store';
    await relay(reply, response);
  }
}
