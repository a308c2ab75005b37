import { Body, Controller } from '@nestjs/common';
import { DefineScopeDto, SCOPE_OPERATIONS } from '@platform/contract';
import { ScopeRegistry, type AuditActor } from '@platform/domain';
import { AdminActor } from '../platform/admin-api.guard';
import { Implements } from '../platform/implements';

@Controller()
export class AdminScopesController {
  constructor(private readonly scopes: ScopeRegistry) {}

  @Implements(SCOPE_OPERATIONS.define)
  async define(@Body() body: DefineScopeDto, @AdminActor() actor: AuditActor) {
    const scope = await this.scopes.define(body.name, body.description, actor);
    // A scope just defined has its creation time (only the standard ones have none).
    return { name: scope.name, description: scope.description, created_at: scope.createdAt!.toISOString() };
  }

  @Implements(SCOPE_OPERATIONS.list)
  async list() {
    return (await this.scopes.list()).map((s) => ({
      name: s.name,
      description: s.description,
      standard: s.standard,
      created_at: s.createdAt?.toISOString() ?? null,
    }));
  }
}
