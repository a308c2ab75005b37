import { Body, Controller, Delete, Get, HttpCode, Param, Put } from '@nestjs/common';
import { FlagDefinitionsUpdateDto } from '@platform/contract';
import { type AuditActor, DefinitionRegistry, FLAG_SET, type ServiceDefinition } from '@platform/domain';
import { AdminActor } from '../admin/admin-api.guard';
import { AdminRoute } from '../platform/route-authority';

/** A tenant's feature flag definitions (docs/flags.md), for admins. */
@Controller('api/v1/tenants/:tenant/flags')
@AdminRoute({ tenantParam: 'tenant' })
export class AdminFlagsController {
  constructor(private readonly flags: DefinitionRegistry) {}

  @Get()
  async get(@Param('tenant') tenant: string) {
    return toFlagsResponse(await this.flags.get(tenant, FLAG_SET));
  }

  @Put()
  async put(
    @Param('tenant') tenant: string,
    @Body() body: FlagDefinitionsUpdateDto,
    @AdminActor() actor: AuditActor,
  ) {
    return toFlagsResponse(await this.flags.put(actor, tenant, FLAG_SET, body));
  }

  @Delete()
  @HttpCode(204)
  async delete(@Param('tenant') tenant: string, @AdminActor() actor: AuditActor) {
    await this.flags.delete(actor, tenant, FLAG_SET);
  }
}

function toFlagsResponse(definition: ServiceDefinition) {
  return {
    tenant: definition.tenant,
    flags: (definition.document?.flags as object | undefined) ?? {},
    version: definition.version,
    updated_at: definition.updatedAt.toISOString(),
  };
}
