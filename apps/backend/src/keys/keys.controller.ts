import { Controller, Post, Req, Res } from '@nestjs/common';
import type { PlatformRequest } from '@platform/http';
import type { FastifyReply } from 'fastify';
import { RequireAdmin } from '../auth/admin.guard';
import { ControlPlaneRelay } from '../forwarding/control-plane-relay';
import { AdminOperation, Answers, RotatedSigningKeyDto } from '@platform/contract';

/** Signing-key rotation (admin Bearer token): the new key signs, the old one stays published. */
@Controller('api/v1/keys')
@RequireAdmin()
export class KeysController {
  constructor(private readonly relay: ControlPlaneRelay) {}

  @Post('rotate')
  @AdminOperation({
    id: 'rotateSigningKey',
    tag: 'Keys and discovery',
    summary: 'Rotate the signing key',
    description:
      'A new RS256 key (2048 bits) signs from now on; the previous one stays in `/v1/jwks` (and is accepted) for one token lifetime plus a minute. Sidecars re-read the key set every 30 s and at once on an unknown `kid`. No body.',
  })
  @Answers(201, RotatedSigningKeyDto, 'The new key.')
  rotate(@Req() request: PlatformRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.relay.forward(request, reply, { to: '/api/v1/keys/rotate' });
  }
}
