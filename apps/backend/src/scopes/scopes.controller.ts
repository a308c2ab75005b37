import { Controller, Get, Post, Req, Res } from '@nestjs/common';
import type { PlatformRequest } from '@platform/http';
import type { FastifyReply } from 'fastify';
import { RequireAdmin } from '../auth/admin.guard';
import { ControlPlaneRelay } from '../forwarding/control-plane-relay';
import {
  AdminOperation,
  Answers,
  DefinedScopeDto,
  DefineScopeDto,
  JsonBody,
  Refuses,
  ScopeDto,
} from '@platform/contract';

/** Custom scope definitions (admin Bearer token), same paths as the control plane's. */
@Controller('api/v1/scopes')
@RequireAdmin()
export class ScopesController {
  constructor(private readonly relay: ControlPlaneRelay) {}

  @Post()
  @AdminOperation({
    id: 'defineScope',
    tag: 'Scopes',
    summary: 'Define a custom scope',
    description:
      'Body and answer are "not shown" in the specification; decided: JSON `{name, description}` -> **201** `{name, description, created_at}`. A standard name or one already defined: **409**; a name that is not lower-case `resource.action` or a description outside 1-500 characters: **400**. Apps may then declare the scope.',
  })
  @JsonBody(DefineScopeDto)
  @Answers(201, DefinedScopeDto, 'Defined.')
  @Refuses(409, 'A standard scope, or one already defined.')
  define(@Req() request: PlatformRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.relay.forward(request, reply, { to: '/api/v1/scopes', body: 'json' });
  }

  @Get()
  @AdminOperation({ id: 'listScopes', tag: 'Scopes', summary: 'List scopes (standard and custom)' })
  @Answers(200, [ScopeDto], 'Every scope, with a `standard` flag.')
  list(@Req() request: PlatformRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.relay.forward(request, reply, { to: '/api/v1/scopes' });
  }
}
