import { Controller, Get, Post, Req, Res } from '@nestjs/common';
import { ApiParam, ApiQuery } from '@nestjs/swagger';
import {
  Answers,
  AuditRecordDto,
  AuditRecordPageDto,
  EmitAuditEventDto,
  JsonBody,
  ListAuditRecordsQueryDto,
  PermissionOperation,
  Refuses,
} from '@platform/contract';
import type { FastifyReply } from 'fastify';
import { asPrincipal, type AuthorizedRequest, RequirePermission } from '../auth/permission';
import { ControlPlaneRelay } from '../forwarding/control-plane-relay';

const Tenant = () => ApiParam({ name: 'tenant', required: true, example: 'acme' });
const BAD_RECORD =
  'A malformed record: an action that is not dotted lower case, a target over 256 characters, attributes that are not flat or over 50 keys or 8 KiB.';
const EMIT =
  'Appends one record to the hash-chained audit log and answers it with its `sequence_id`, `previous_hash` and `record_hash`. The actor is the caller: the user of a user token, else the application. Permission `audit.write`';

/** Applications and users writing and reading the audit log (docs/audit.md). */
@Controller('api/v1')
export class AuditRecordsController {
  constructor(private readonly relay: ControlPlaneRelay) {}

  @Post('audit/records')
  @RequirePermission('audit.write')
  @PermissionOperation({
    id: 'emitPlatformAuditRecord',
    tag: 'Audit',
    summary: 'Write a platform-wide audit record',
    description: `${EMIT} on no tenant: an application token with a scope covering it (user tokens write into their tenant, below).`,
  })
  @JsonBody(EmitAuditEventDto)
  @Answers(201, AuditRecordDto, 'Appended.')
  @Refuses(400, BAD_RECORD)
  emitPlatformWide(@Req() request: AuthorizedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.relay.forward(request, reply, {
      to: '/internal/v1/audit/records',
      body: 'json',
      ...asPrincipal,
    });
  }

  @Post('tenants/:tenant/audit/records')
  @RequirePermission('audit.write', { tenantParam: 'tenant' })
  @PermissionOperation({
    id: 'emitTenantAuditRecord',
    tag: 'Audit',
    summary: 'Write an audit record of a tenant',
    description: `${EMIT} on \`{tenant}\`: a user needs the scope and a role allowing it there (\`tenant_admin\` of the tenant, \`global_admin\`); an application, the scope.`,
  })
  @Tenant()
  @JsonBody(EmitAuditEventDto)
  @Answers(201, AuditRecordDto, 'Appended.')
  @Refuses(400, BAD_RECORD)
  emit(@Req() request: AuthorizedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.relay.forward(request, reply, {
      to: '/internal/v1/tenants/:tenant/audit/records',
      body: 'json',
      ...asPrincipal,
    });
  }

  @Get('tenants/:tenant/audit/records')
  @RequirePermission('audit.read', { tenantParam: 'tenant' })
  @PermissionOperation({
    id: 'listTenantAuditRecords',
    tag: 'Audit',
    summary: 'The audit log of a tenant',
    description:
      'Permission `audit.read` on `{tenant}` (`tenant_admin` of the tenant, `global_admin`, or an application with the scope). Oldest first, cursor-paged; filters combine with AND.',
  })
  @Tenant()
  @ApiQuery({ type: ListAuditRecordsQueryDto })
  @Answers(200, AuditRecordPageDto, 'One page of records.')
  @Refuses(
    400,
    'A malformed filter (a time that is not RFC 3339, a negative cursor, a limit outside 1-1000).',
  )
  list(@Req() request: AuthorizedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.relay.forward(request, reply, {
      to: '/internal/v1/tenants/:tenant/audit/records',
      query: ['after', 'limit', 'since', 'until', 'actor', 'action', 'target'],
      ...asPrincipal,
    });
  }
}
