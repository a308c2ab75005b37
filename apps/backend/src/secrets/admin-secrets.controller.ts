import { Controller, Post, Req, Res } from '@nestjs/common';
import { AdminOperation, Answers, SecretsRewrapDto } from '@platform/contract';
import type { PlatformRequest } from '@platform/http';
import type { FastifyReply } from 'fastify';
import { RequireAdmin } from '../auth/admin.guard';
import { ControlPlaneRelay } from '../forwarding/control-plane-relay';

/** The key-encryption key's rotation, second step (docs/secrets.md). */
@Controller('api/v1/secrets')
@RequireAdmin()
export class AdminSecretsController {
  constructor(private readonly relay: ControlPlaneRelay) {}

  @Post('rewrap')
  @AdminOperation({
    id: 'rewrapSecrets',
    tag: 'Secrets',
    summary: 'Rewrap every data key under the current KEK',
    description:
      'After SECRETS_KEK was changed (the old key moved to SECRETS_KEK_PREVIOUS on every control plane): wraps each stored data key again under the current key, one version at a time, values untouched, reads and writes going on meanwhile. Run it again after an interruption; once it answers, the old key can be dropped. No body. Audited (`secrets.rewrapped`).',
  })
  @Answers(200, SecretsRewrapDto, 'How many data keys moved, and the current key’s id.')
  rewrap(@Req() request: PlatformRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.relay.forward(request, reply, { to: '/api/v1/secrets/rewrap' });
  }
}
