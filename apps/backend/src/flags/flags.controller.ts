import { Controller, Delete, Get, Put, Req, Res } from '@nestjs/common';
import { ApiParam, ApiResponse } from '@nestjs/swagger';
import {
  AdminOperation,
  Answers,
  FlagDefinitionsDto,
  FlagDefinitionsUpdateDto,
  JsonBody,
  Refuses,
} from '@platform/contract';
import type { PlatformRequest } from '@platform/http';
import type { FastifyReply } from 'fastify';
import { RequireAdmin } from '../auth/admin.guard';
import { ControlPlaneRelay } from '../forwarding/control-plane-relay';

const NO_FLAGS = 'The tenant has no flag definitions.';

/**
 * A tenant's feature flags (docs/flags.md), evaluated by the sidecars' FlagService; admin Bearer
 * token, same paths as the control plane's. A change reaches every sidecar within a second.
 */
@Controller('api/v1/tenants/:tenant/flags')
@ApiParam({ name: 'tenant', required: true, example: 'acme' })
@RequireAdmin({ tenantParam: 'tenant' })
export class FlagsController {
  constructor(private readonly relay: ControlPlaneRelay) {}

  @Get()
  @AdminOperation({
    id: 'getFlagDefinitions',
    tag: 'Feature flags',
    summary: 'The flag definitions of a tenant',
  })
  @Answers(200, FlagDefinitionsDto, 'The definitions and their version.')
  @Refuses(404, NO_FLAGS)
  get(@Req() request: PlatformRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.relay.forward(request, reply, { to: '/api/v1/tenants/:tenant/flags' });
  }

  @Put()
  @AdminOperation({
    id: 'putFlagDefinitions',
    tag: 'Feature flags',
    summary: 'Set the flag definitions of a tenant',
    description:
      'Replaces them (a new version), checked against flagd’s schema: a document it refuses is **400** with where and why. Every sidecar evaluates the new definitions within a second. Audited (`flags.changed`).',
  })
  @JsonBody(FlagDefinitionsUpdateDto)
  @Answers(200, FlagDefinitionsDto, 'The definitions as stored.')
  put(@Req() request: PlatformRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.relay.forward(request, reply, { to: '/api/v1/tenants/:tenant/flags', body: 'json' });
  }

  @Delete()
  @AdminOperation({
    id: 'deleteFlagDefinitions',
    tag: 'Feature flags',
    summary: 'Remove the flags of a tenant',
  })
  @ApiResponse({ status: 204, description: 'Removed: every flag of the tenant evaluates to its default.' })
  @Refuses(404, NO_FLAGS)
  delete(@Req() request: PlatformRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.relay.forward(request, reply, { to: '/api/v1/tenants/:tenant/flags' });
  }
}
