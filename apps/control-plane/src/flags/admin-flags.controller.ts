import { Body, Controller, Param } from '@nestjs/common';
import { FLAG_OPERATIONS, FlagDefinitionsUpdateDto } from '@platform/contract';
import { type AuditActor, DefinitionRegistry, FLAG_SET, type ServiceDefinition } from '@platform/domain';
import { AdminActor } from '../platform/admin-api.guard';
import { Implements } from '../platform/implements';

/** A tenant's feature flag definitions (docs/flags.md), for admins. */
@Controller()
export class AdminFlagsController {
  constructor(private readonly flags: DefinitionRegistry) {}

  @Implements(FLAG_OPERATIONS.get)
  async get(@Param('tenant') tenant: string) {
    return toFlagsResponse(await this.flags.get(tenant, FLAG_SET));
  }

  @Implements(FLAG_OPERATIONS.put)
  async put(
    @Param('tenant') tenant: string,
    @Body() body: FlagDefinitionsUpdateDto,
    @AdminActor() actor: AuditActor,
  ) {
    return toFlagsResponse(await this.flags.put(actor, tenant, FLAG_SET, body));
  }

  @Implements(FLAG_OPERATIONS.delete)
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
