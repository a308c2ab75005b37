import { Controller, Get, Post, Req, Res } from '@nestjs/common';
import { ApiParam, ApiQuery } from '@nestjs/swagger';
import {
  AdminOperation,
  Answers,
  AuditCheckpointDto,
  AuditConsistencyProofDto,
  AuditConsistencyQueryDto,
  AuditInclusionProofDto,
  AuditRecordPageDto,
  AuditVerificationDto,
  ListAllAuditRecordsQueryDto,
  LIVE_STREAM_END,
  Refuses,
  VerifyAuditQueryDto,
} from '@platform/contract';
import type { PlatformRequest } from '@platform/http';
import type { FastifyReply } from 'fastify';
import { RequireAdmin } from '../auth/admin.guard';
import { ControlPlaneRelay } from '../forwarding/control-plane-relay';

/** The whole audit log, for platform administrators (admin Bearer token). */
@Controller('api/v1/audit')
@RequireAdmin()
export class AdminAuditController {
  constructor(private readonly relay: ControlPlaneRelay) {}

  @Get('records')
  @AdminOperation({
    id: 'listAuditRecords',
    tag: 'Audit',
    summary: 'The audit log',
    description: `Every record of every tenant, oldest first, cursor-paged, filterable by tenant, actor, action, target and time; or live, with \`Accept: text/event-stream\`: Server-Sent Events (\`event: audit_record\`, \`id\` = the sequence id), every stored record from \`after\` and then each new one, resumed after \`Last-Event-ID\`. ${LIVE_STREAM_END} The platform audits itself here (docs/audit.md).`,
  })
  @ApiQuery({ type: ListAllAuditRecordsQueryDto })
  @Answers(200, AuditRecordPageDto, 'One page of records.')
  @Refuses(400, 'A malformed filter.')
  list(@Req() request: PlatformRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.relay.forward(request, reply, {
      to: '/api/v1/audit/records',
      query: ['after', 'limit', 'since', 'until', 'tenant', 'actor', 'action', 'target'],
      live: true,
    });
  }

  @Get('verify')
  @AdminOperation({
    id: 'verifyAuditLog',
    tag: 'Audit',
    summary: 'Verify the audit chain',
    description:
      'Recomputes every record’s hash from its content and checks each link, whole or between `from` and `through`, and names the first record that does not verify (an edited, removed or re-hashed row). 200 either way: `valid` says which.',
  })
  @ApiQuery({ type: VerifyAuditQueryDto })
  @Answers(200, AuditVerificationDto, 'The verdict.')
  @Refuses(400, 'A malformed range.')
  verify(@Req() request: PlatformRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.relay.forward(request, reply, { to: '/api/v1/audit/verify', query: ['from', 'through'] });
  }

  @Post('checkpoints')
  @AdminOperation({
    id: 'createAuditCheckpoint',
    tag: 'Audit',
    summary: 'Checkpoint the audit log now',
    description:
      'Signs the tree head of the whole log as it is now, without waiting for the periodic one (the stored checkpoint when the log has not grown). No body.',
  })
  @Answers(201, AuditCheckpointDto, 'The checkpoint.')
  @Refuses(404, 'The log is empty.')
  checkpoint(@Req() request: PlatformRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.relay.forward(request, reply, { to: '/api/v1/audit/checkpoints' });
  }

  @Get('consistency')
  @AdminOperation({
    id: 'getAuditConsistencyProof',
    tag: 'Audit',
    summary: 'Prove the log only grew since a checkpoint',
    description:
      'The RFC 6962 consistency proof from the tree of the first `from` records (a checkpoint the caller kept) to the latest checkpoint.',
  })
  @ApiQuery({ type: AuditConsistencyQueryDto })
  @Answers(200, AuditConsistencyProofDto, 'The proof.')
  @Refuses(400, '`from` is missing, not an integer, or beyond the latest checkpoint.')
  @Refuses(409, 'No checkpoint yet.')
  consistency(@Req() request: PlatformRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.relay.forward(request, reply, { to: '/api/v1/audit/consistency', query: ['from'] });
  }

  @Get('records/:sequence_id/inclusion')
  @AdminOperation({
    id: 'getAuditInclusionProof',
    tag: 'Audit',
    summary: 'Prove a record is in the latest checkpoint',
    description: 'The RFC 6962 audit path of the record to the root of the latest signed checkpoint.',
  })
  @ApiParam({ name: 'sequence_id', required: true, example: 42 })
  @Answers(200, AuditInclusionProofDto, 'The proof.')
  @Refuses(400, 'The sequence id is not an integer.')
  @Refuses(404, 'No such record in the latest checkpoint.')
  @Refuses(409, 'No checkpoint yet.')
  inclusion(@Req() request: PlatformRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.relay.forward(request, reply, { to: '/api/v1/audit/records/:sequence_id/inclusion' });
  }
}
