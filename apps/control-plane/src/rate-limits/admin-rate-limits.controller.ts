import { Body, Controller, Param } from '@nestjs/common';
import { RATE_LIMIT_OPERATIONS, RateLimitRulesUpdateDto } from '@platform/contract';
import { type AuditActor, DefinitionRegistry, type ServiceDefinition } from '@platform/domain';
import { AdminActor } from '../platform/admin-api.guard';
import { Implements } from '../platform/implements';

/** The rate limit rules of a tenant's domains (docs/rate-limits.md), for admins. */
@Controller()
export class AdminRateLimitsController {
  constructor(private readonly rules: DefinitionRegistry) {}

  @Implements(RATE_LIMIT_OPERATIONS.list)
  async list(@Param('tenant') tenant: string) {
    return (await this.rules.list(tenant)).map(toRulesResponse);
  }

  @Implements(RATE_LIMIT_OPERATIONS.get)
  async get(@Param('tenant') tenant: string, @Param('domain') domain: string) {
    return toRulesResponse(await this.rules.get(tenant, domain));
  }

  @Implements(RATE_LIMIT_OPERATIONS.put)
  async put(
    @Param('tenant') tenant: string,
    @Param('domain') domain: string,
    @Body() body: RateLimitRulesUpdateDto,
    @AdminActor() actor: AuditActor,
  ) {
    return toRulesResponse(await this.rules.put(actor, tenant, domain, body));
  }

  @Implements(RATE_LIMIT_OPERATIONS.delete)
  async delete(
    @Param('tenant') tenant: string,
    @Param('domain') domain: string,
    @AdminActor() actor: AuditActor,
  ) {
    await this.rules.delete(actor, tenant, domain);
  }
}

function toRulesResponse(definition: ServiceDefinition) {
  return {
    tenant: definition.tenant,
    domain: definition.name,
    descriptors: (definition.document?.descriptors as object[] | undefined) ?? [],
    version: definition.version,
    updated_at: definition.updatedAt.toISOString(),
  };
}
