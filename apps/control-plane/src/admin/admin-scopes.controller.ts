import { Body, Controller, Get, Post, UseGuards } from '@nestjs/common';
import { DefineScopeDto } from '@platform/contract';
import { ScopeRegistry, type AuditActor } from '@platform/domain';
import { AdminActor, AdminApiGuard } from './admin-api.guard';

@Controller('api/v1/scopes')
@UseGuards(AdminApiGuard)
export class AdminScopesController {
  constructor(private readonly scopes: ScopeRegistry) {}

  @Post()
  async define(@Body() body: DefineScopeDto, @AdminActor() actor: AuditActor) {
    const scope = await this.scopes.define(body.name, body.description, actor);
    return { name: scope.name, description: scope.description, created_at: scope.createdAt?.toISOString() };
  }

  @Get()
  async list() {
    return (await this.scopes.list()).map((s) => ({
      name: s.name,
      description: s.description,
      standard: s.standard,
      created_at: s.createdAt?.toISOString() ?? null,
    }));
  }
}
