import { Controller, Get, Req, Res } from '@nestjs/common';
import { Answers, AuditCheckpointDto, PublicOperation, Refuses, ServerFailures } from '@platform/contract';
import type { PlatformRequest } from '@platform/http';
import type { FastifyReply } from 'fastify';
import { ControlPlaneRelay } from '../forwarding/control-plane-relay';

/** The published checkpoint of the audit log: no credential, so anyone can hold the log to it. */
@Controller('v1/audit')
export class AuditCheckpointController {
  constructor(private readonly relay: ControlPlaneRelay) {}

  @Get('checkpoint')
  @PublicOperation({
    id: 'getAuditCheckpoint',
    tag: 'Audit',
    summary: 'The latest signed checkpoint of the audit log',
    description:
      'The RFC 6962 tree head over every record up to `tree_size`, signed with the platform key (verify `signed` with `/v1/jwks`). Made every minute when the log has grown. With a record and an inclusion proof, an outside party checks the record is in the log without reading the rest.',
  })
  @Answers(200, AuditCheckpointDto, 'The checkpoint.')
  @Refuses(404, 'No checkpoint yet (an empty log, or none made since the first record).')
  @ServerFailures()
  latest(@Req() request: PlatformRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.relay.forward(request, reply, {
      to: '/api/v1/audit/checkpoint',
      forwardAuthorization: false,
    });
  }
}
