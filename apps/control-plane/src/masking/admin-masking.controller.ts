import { Body, Controller, Delete, Get, HttpCode, Param, Put } from '@nestjs/common';
import { MaskingSettingsUpdateDto } from '@platform/contract';
import {
  type AuditActor,
  DefinitionRegistry,
  MASKING_SETTINGS_NAME,
  type ServiceDefinition,
} from '@platform/domain';
import { AdminActor } from '../admin/admin-api.guard';
import { AdminRoute } from '../platform/route-authority';

/** A tenant's masking settings (docs/masking.md), for admins. */
@Controller('api/v1/tenants/:tenant/masking')
@AdminRoute({ tenantParam: 'tenant' })
export class AdminMaskingController {
  constructor(private readonly settings: DefinitionRegistry) {}

  @Get()
  async get(@Param('tenant') tenant: string) {
    return toSettingsResponse(await this.settings.get(tenant, MASKING_SETTINGS_NAME));
  }

  @Put()
  async put(
    @Param('tenant') tenant: string,
    @Body() body: MaskingSettingsUpdateDto,
    @AdminActor() actor: AuditActor,
  ) {
    return toSettingsResponse(await this.settings.put(actor, tenant, MASKING_SETTINGS_NAME, body));
  }

  @Delete()
  @HttpCode(204)
  async delete(@Param('tenant') tenant: string, @AdminActor() actor: AuditActor) {
    await this.settings.delete(actor, tenant, MASKING_SETTINGS_NAME);
  }
}

function toSettingsResponse(definition: ServiceDefinition) {
  return {
    tenant: definition.tenant,
    custom_patterns: (definition.document?.custom_patterns as object[] | undefined) ?? [],
    version: definition.version,
    updated_at: definition.updatedAt.toISOString(),
  };
}
