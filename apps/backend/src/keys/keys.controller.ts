import { Controller, Post, Req, Res, UseGuards } from '@nestjs/common';
import type { PlatformRequest } from '@platform/http';
import type { FastifyReply } from 'fastify';
import { AdminGuard } from '../auth/admin.guard';
import { ControlPlaneRelay } from '../forwarding/control-plane-relay';

/** Signing-key rotation (admin Bearer token): the new key signs, the old one stays published. */
@Controller('api/v1/keys')
@UseGuards(AdminGuard)
export class KeysController {
  constructor(private readonly relay: ControlPlaneRelay) {}

  @Post('rotate')
  rotate(@Req() request: PlatformRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.relay.forward(request, reply, { to: '/api/v1/keys/rotate' });
  }
}
