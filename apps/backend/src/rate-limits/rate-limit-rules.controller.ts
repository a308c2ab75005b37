import { Controller, Delete, Get, Put, Req, Res } from '@nestjs/common';
import { ApiParam, ApiResponse } from '@nestjs/swagger';
import {
  AdminOperation,
  Answers,
  JsonBody,
  RateLimitRulesDto,
  RateLimitRulesUpdateDto,
  Refuses,
} from '@platform/contract';
import type { PlatformRequest } from '@platform/http';
import type { FastifyReply } from 'fastify';
import { RequireAdmin } from '../auth/admin.guard';
import { ControlPlaneRelay } from '../forwarding/control-plane-relay';

const Domain = () => ApiParam({ name: 'domain', required: true, example: 'checkout' });
const NO_RULES = 'The tenant has no rules for that domain.';

/**
 * The rules of the sidecar's rate limit service (docs/rate-limits.md), per tenant and domain,
 * admin Bearer token; same paths as the control plane's. A change reaches every sidecar within a
 * second.
 */
@Controller('api/v1/tenants/:tenant/rate-limits')
@ApiParam({ name: 'tenant', required: true, example: 'acme' })
@RequireAdmin({ tenantParam: 'tenant' })
export class RateLimitRulesController {
  constructor(private readonly relay: ControlPlaneRelay) {}

  @Get()
  @AdminOperation({
    id: 'listRateLimitRules',
    tag: 'Rate limits',
    summary: 'The rate limit rules of a tenant',
  })
  @Answers(200, [RateLimitRulesDto], 'The rules of every domain of the tenant.')
  list(@Req() request: PlatformRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.relay.forward(request, reply, { to: '/api/v1/tenants/:tenant/rate-limits' });
  }

  @Get(':domain')
  @AdminOperation({
    id: 'getRateLimitRules',
    tag: 'Rate limits',
    summary: 'The rate limit rules of one domain',
  })
  @Domain()
  @Answers(200, RateLimitRulesDto, 'The rules.')
  @Refuses(404, NO_RULES)
  get(@Req() request: PlatformRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.relay.forward(request, reply, { to: '/api/v1/tenants/:tenant/rate-limits/:domain' });
  }

  @Put(':domain')
  @AdminOperation({
    id: 'putRateLimitRules',
    tag: 'Rate limits',
    summary: 'Set the rate limit rules of one domain',
    description:
      'Replaces the rules (a new version); every sidecar applies them within a second, counters of unchanged limits carry on. A rule the service cannot read is **400** with the path to it. Audited (`ratelimit.rules_changed`).',
  })
  @Domain()
  @JsonBody(RateLimitRulesUpdateDto)
  @Answers(200, RateLimitRulesDto, 'The rules as stored.')
  put(@Req() request: PlatformRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.relay.forward(request, reply, {
      to: '/api/v1/tenants/:tenant/rate-limits/:domain',
      body: 'json',
    });
  }

  @Delete(':domain')
  @AdminOperation({
    id: 'deleteRateLimitRules',
    tag: 'Rate limits',
    summary: 'Remove the rate limit rules of one domain',
    description: 'The domain is no longer limited, at every sidecar within a second. Audited.',
  })
  @Domain()
  @ApiResponse({ status: 204, description: 'Removed.' })
  @Refuses(404, NO_RULES)
  delete(@Req() request: PlatformRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.relay.forward(request, reply, { to: '/api/v1/tenants/:tenant/rate-limits/:domain' });
  }
}
