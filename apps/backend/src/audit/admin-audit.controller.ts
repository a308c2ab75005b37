import { Controller, Get, Req, Res, UseGuards } from '@nestjs/common';
import { ApiQuery } from '@nestjs/swagger';
import {
  AdminOperation,
  Answers,
  AuditRecordPageDto,
  AuditVerificationDto,
  ListAllAuditRecordsQueryDto,
  Refuses,
  VerifyAuditQueryDto,
} from '@platform/contract';
import type { PlatformRequest } from '@platform/http';
import type { FastifyReply } from 'fastify';
import { AdminGuard } from '../auth/admin.guard';
import { ControlPlaneRelay } from '../forwarding/control-plane-relay';

/** The whole audit log, for platform administrators (admin Bearer token). */
@Controller('api/v1/audit')
@UseGuards(AdminGuard)
export class AdminAuditController {
  constructor(private readonly relay: ControlPlaneRelay) {}

  @Get('records')
  @AdminOperation({
    id: 'listAuditRecords',
    tag: 'Audit',
    summary: 'The audit log',
    description:
      'Every record of every tenant, oldest first, cursor-paged, filterable by tenant, actor, action, target and time. The platform audits itself here: token issuance and revocation, refresh rotation and family revocation, app registration, secret rotation and deletion.',
  })
  @ApiQuery({ type: ListAllAuditRecordsQueryDto })
  @Answers(200, AuditRecordPageDto, 'One page of records.')
  @Refuses(400, 'A malformed filter.')
  list(@Req() request: PlatformRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.relay.forward(request, reply, {
      to: '/api/v1/audit/records',
      query: ['after', 'limit', 'since', 'until', 'tenant', 'actor', 'action', 'target'],
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
}
