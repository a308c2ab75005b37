import { Body, Controller, Param } from '@nestjs/common';
import { MASKING_OPERATIONS, MaskingSettingsUpdateDto } from '@platform/contract';
import {
  type AuditActor,
  DefinitionRegistry,
  MASKING_SETTINGS_NAME,
  type ServiceDefinition,
} from '@platform/domain';
import { AdminActor } from '../platform/admin-api.guard';
import { Implements } from '../platform/implements';

/** A tenant's masking settings (docs/masking.md), for admins. */
@Controller()
export class AdminMaskingController {
  constructor(private readonly settings: DefinitionRegistry) {}

  @Implements(MASKING_OPERATIONS.get)
  async get(@Param('tenant') tenant: string) {
    return toSettingsResponse(await this.settings.get(tenant, MASKING_SETTINGS_NAME));
  }

  @Implements(MASKING_OPERATIONS.put)
  async put(
    @Param('tenant') tenant: string,
    @Body() body: MaskingSettingsUpdateDto,
    @AdminActor() actor: AuditActor,
  ) {
    return toSettingsResponse(await this.settings.put(actor, tenant, MASKING_SETTINGS_NAME, body));
  }

  @Implements(MASKING_OPERATIONS.delete)
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
