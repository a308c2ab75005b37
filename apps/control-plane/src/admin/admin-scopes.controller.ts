import { Body, Controller, Get, Post } from '@nestjs/common';
import { DefineScopeDto } from '@platform/contract';
import { ScopeRegistry, type AuditActor } from '@platform/domain';
import { AdminActor } from './admin-api.guard';
import { AdminRoute } from '../platform/route-authority';

@Controller('api/v1/scopes')
@AdminRoute()
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
