import { Controller, Get, Req, Res, UseGuards } from '@nestjs/common';
import type { PlatformRequest } from '@platform/http';
import type { FastifyReply } from 'fastify';
import { AdminGuard } from '../auth/admin.guard';
import { ControlPlaneRelay } from '../forwarding/control-plane-relay';

/** The token event stream (admin Bearer token). */
@Controller('api/v1/token-events')
@UseGuards(AdminGuard)
export class TokenEventsController {
  constructor(private readonly relay: ControlPlaneRelay) {}

  @Get()
  list(@Req() request: PlatformRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.relay.forward(request, reply, {
      to: '/api/v1/token-events',
      query: ['after', 'limit', 'client_id'],
    });
  }
}
