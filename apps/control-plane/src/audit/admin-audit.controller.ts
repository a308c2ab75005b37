import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { ListAllAuditRecordsQueryDto, VerifyAuditQueryDto } from '@platform/contract';
import { AuditLog } from '@platform/domain';
import { AdminApiGuard } from '../admin/admin-api.guard';
import { toAuditPage, toAuditQuery } from './audit-wire';

/** The whole audit log for platform administrators: every tenant, and verification. */
@Controller('api/v1/audit')
@UseGuards(AdminApiGuard)
export class AdminAuditController {
  constructor(private readonly audit: AuditLog) {}

  @Get('records')
  async list(@Query() query: ListAllAuditRecordsQueryDto) {
    const records = await this.audit.query({ ...toAuditQuery(query), tenant: query.tenant });
    return toAuditPage(records, query.after);
  }

  @Get('verify')
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
