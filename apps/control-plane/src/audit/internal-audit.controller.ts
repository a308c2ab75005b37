import { Body, Controller, Get, Headers, HttpCode, Param, Post, Query } from '@nestjs/common';
import { EmitAuditEventDto, ListAuditRecordsQueryDto } from '@platform/contract';
import { AuditLog, type AuditEmission } from '@platform/domain';
import { PRINCIPAL_HEADER } from '@platform/internal';
import { readPrincipal } from '../tenants/principal';
import { toAuditPage, toAuditQuery, toAuditRecordResponse } from './audit-wire';
import { InternalRoute } from '../platform/route-authority';

/**
 * Audit records written and read on behalf of a caller the backend (or a sidecar) already
 * authorized for `audit.write` / `audit.read`; it names the caller in `x-platform-principal`.
 */
@Controller('internal/v1')
@InternalRoute()
export class InternalAuditController {
  constructor(private readonly audit: AuditLog) {}

  /** A platform-wide record (no tenant): an application's own. */
  @Post('audit/records')
  @HttpCode(201)
  async emitPlatformWide(@Body() body: EmitAuditEventDto, @Headers(PRINCIPAL_HEADER) principal?: string) {
    return toAuditRecordResponse(await this.audit.emit(readPrincipal(principal), null, emissionOf(body)));
  }

  @Post('tenants/:tenant/audit/records')
  @HttpCode(201)
  async emit(
    @Param('tenant') tenant: string,
    @Body() body: EmitAuditEventDto,
    @Headers(PRINCIPAL_HEADER) principal?: string,
  ) {
    return toAuditRecordResponse(await this.audit.emit(readPrincipal(principal), tenant, emissionOf(body)));
  }

  @Get('tenants/:tenant/audit/records')
  async list(
    @Param('tenant') tenant: string,
    @Query() query: ListAuditRecordsQueryDto,
    @Headers(PRINCIPAL_HEADER) principal?: string,
  ) {
    const records = await this.audit.queryTenant(readPrincipal(principal), tenant, toAuditQuery(query));
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
