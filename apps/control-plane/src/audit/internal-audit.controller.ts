import { Body, Controller, Param, Query } from '@nestjs/common';
import { AUDIT_RECORD_OPERATIONS, EmitAuditEventDto, ListAuditRecordsQueryDto } from '@platform/contract';
import { type ActingPrincipal, AuditLog, type AuditEmission } from '@platform/domain';
import { Implements } from '../platform/implements';
import { Caller } from '../tenants/principal';
import { toAuditPage, toAuditQuery, toAuditRecordResponse } from './audit-wire';

/**
 * Audit records written and read on behalf of a caller the backend (or a sidecar) already
 * authorized for `audit.write` / `audit.read`; it names the caller in `x-platform-principal`.
 */
@Controller()
export class InternalAuditController {
  constructor(private readonly audit: AuditLog) {}

  /** A platform-wide record (no tenant): an application's own. */
  @Implements(AUDIT_RECORD_OPERATIONS.emitPlatformWide)
  async emitPlatformWide(@Body() body: EmitAuditEventDto, @Caller() caller: ActingPrincipal) {
    return toAuditRecordResponse(await this.audit.emit(caller, null, emissionOf(body)));
  }

  @Implements(AUDIT_RECORD_OPERATIONS.emit)
  async emit(
    @Param('tenant') tenant: string,
    @Body() body: EmitAuditEventDto,
    @Caller() caller: ActingPrincipal,
  ) {
    return toAuditRecordResponse(await this.audit.emit(caller, tenant, emissionOf(body)));
  }

  @Implements(AUDIT_RECORD_OPERATIONS.list)
  async list(
    @Param('tenant') tenant: string,
    @Query() query: ListAuditRecordsQueryDto,
    @Caller() caller: ActingPrincipal,
  ) {
    const records = await this.audit.queryTenant(caller, tenant, toAuditQuery(query));
    return toAuditPage(records, query.after);
  }
}

function emissionOf(body: EmitAuditEventDto): AuditEmission {
  return {
    action: body.action,
    target: body.target,
    outcome: body.outcome,
    occurredAt: body.occurred_at === undefined ? undefined : new Date(body.occurred_at),
    attributes: body.attributes,
  };
}
