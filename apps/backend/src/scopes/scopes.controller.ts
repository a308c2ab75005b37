import { Controller, Get, Post, Req, Res, UseGuards } from '@nestjs/common';
import type { PlatformRequest } from '@platform/http';
import type { FastifyReply } from 'fastify';
import { AdminGuard } from '../auth/admin.guard';
import { ControlPlaneRelay } from '../forwarding/control-plane-relay';

/** Custom scope definitions (admin Bearer token), same paths as the control plane's. */
@Controller('api/v1/scopes')
@UseGuards(AdminGuard)
export class ScopesController {
  constructor(private readonly relay: ControlPlaneRelay) {}

  @Post()
  define(@Req() request: PlatformRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.relay.forward(request, reply, { to: '/api/v1/scopes', body: 'json' });
  }

  @Get()
  list(@Req() request: PlatformRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.relay.forward(request, reply, { to: '/api/v1/scopes' });
  }
}
