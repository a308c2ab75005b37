import { Body, Controller, Delete, Get, HttpCode, Param, Put } from '@nestjs/common';
import { RateLimitRulesUpdateDto } from '@platform/contract';
import { type AuditActor, DefinitionRegistry, type ServiceDefinition } from '@platform/domain';
import { AdminActor } from '../admin/admin-api.guard';
import { AdminRoute } from '../platform/route-authority';

/** The rate limit rules of a tenant's domains (docs/rate-limits.md), for admins. */
@Controller('api/v1/tenants/:tenant/rate-limits')
@AdminRoute({ tenantParam: 'tenant' })
export class AdminRateLimitsController {
  constructor(private readonly rules: DefinitionRegistry) {}

  @Get()
  async list(@Param('tenant') tenant: string) {
    return (await this.rules.list(tenant)).map(toRulesResponse);
  }

  @Get(':domain')
  async get(@Param('tenant') tenant: string, @Param('domain') domain: string) {
    return toRulesResponse(await this.rules.get(tenant, domain));
  }

  @Put(':domain')
  async put(
    @Param('tenant') tenant: string,
    @Param('domain') domain: string,
    @Body() body: RateLimitRulesUpdateDto,
    @AdminActor() actor: AuditActor,
  ) {
    return toRulesResponse(await this.rules.put(actor, tenant, domain, body));
  }

  @Delete(':domain')
  @HttpCode(204)
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
