import { Controller, Query, Res } from '@nestjs/common';
import { ADMIN_AUDIT_OPERATIONS, ListAllAuditRecordsQueryDto, VerifyAuditQueryDto } from '@platform/contract';
import { type AccessTokenClaims, AuditLog, type AuditRecord } from '@platform/domain';
import { followFeed, liveReplyOf } from '@platform/http';
import type { FastifyReply } from 'fastify';
import { AdminClaims } from '../platform/admin-api.guard';
import { Implements, ImplementsLive } from '../platform/implements';
import { toAuditPage, toAuditQuery, toAuditRecordResponse } from './audit-wire';

/** The whole audit log for platform administrators: every tenant, and verification. */
@Controller()
export class AdminAuditController {
  constructor(private readonly audit: AuditLog) {}

  /**
   * With `Accept: text/event-stream`, the same records live (SSE, `id` = the sequence id), until
   * the admin token expires.
   */
  @ImplementsLive(ADMIN_AUDIT_OPERATIONS.listAll)
  async list(
    @Query() query: ListAllAuditRecordsQueryDto,
    @AdminClaims() admin: AccessTokenClaims,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const filters = { ...toAuditQuery(query), tenant: query.tenant };
    const live = liveReplyOf(reply);
    if (live) {
      const feed = {
        page: (after: number, limit: number) => this.audit.query({ ...filters, after, limit }),
        idOf: (record: AuditRecord) => record.sequenceId,
        event: 'audit_record',
        toData: toAuditRecordResponse,
      };
      return followFeed(reply, live, feed, query.after ?? 0, {
        expiresAt: admin.exp,
        caller: `client:${admin.client_id}`,
      });
    }
    return toAuditPage(await this.audit.query(filters), query.after);
  }

  @Implements(ADMIN_AUDIT_OPERATIONS.verify)
  async verify(@Query() query: VerifyAuditQueryDto) {
    const result = await this.audit.verify({ from: query.from, through: query.through });
    return {
      valid: result.valid,
      checked: result.checked,
      from: result.from,
      through: result.through,
      first_invalid: result.firstInvalid && {
        sequence_id: result.firstInvalid.sequenceId,
        problem: result.firstInvalid.problem,
      },
    };
  }
}
