import { Controller, Get, Param, Put, Req, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { type AuthorizedRequest, callerPrincipal, RequirePermission } from '../auth/permission';
import { ControlPlaneClient } from '../clients/control-plane.client';
import { JsonBody } from '../http/caller';
import { relay } from '../http/relay';

/** The header with which the control plane learns who the authorized caller is. */
export const PRINCIPAL_HEADER = 'x-platform-principal';

/**
 * `x-platform-principal`: base64url JSON of the caller the permission guard let through
 * (docs/internal-api.md), with the token's scope, which decides for a service token whether it
 * is a platform administrator (admin.*).
 */
export function principalHeader(request: AuthorizedRequest): string {
  if (request.claims === undefined) throw new Error('tenant routes need @RequirePermission');
  const principal = { ...callerPrincipal(request.claims), scope: request.claims.scope };
  return Buffer.from(JSON.stringify(principal)).toString('base64url');
}

/**
 * Tenant user administration. The permission guard asks the sidecar (users.read / users.write on
 * the route's tenant: the token's scope, then the user's role policies); the control plane keeps
 * the rules that depend on the data (the user's tenant, the role bundle, who grants global_admin).
 */
@Controller('api/v1/tenants/:tenant/users')
export class TenantUsersController {
  constructor(private readonly controlPlane: ControlPlaneClient) {}

  @Get()
  @RequirePermission('users.read', { tenantParam: 'tenant' })
  async list(
    @Param('tenant') tenant: string,
    @Req() request: AuthorizedRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    await relay(reply, await this.forward(request, 'GET', usersPath(tenant)));
  }

  @Get(':id')
  @RequirePermission('users.read', { tenantParam: 'tenant' })
  async get(
    @Param('tenant') tenant: string,
    @Param('id') id: string,
    @Req() request: AuthorizedRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    await relay(reply, await this.forward(request, 'GET', `${usersPath(tenant)}/${encodeURIComponent(id)}`));
  }

  /** JSON `{roles}`: names of the role bundle; only a global_admin grants global_admin. */
  @Put(':id/roles')
  @RequirePermission('users.write', { tenantParam: 'tenant' })
  async setRoles(
    @Param('tenant') tenant: string,
    @Param('id') id: string,
    @JsonBody() body: string,
    @Req() request: AuthorizedRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const path = `${usersPath(tenant)}/${encodeURIComponent(id)}/roles`;
    await relay(reply, await this.forward(request, 'PUT', path, body));
  }

  private forward(request: AuthorizedRequest, method: 'GET' | 'PUT', path: string, body?: string) {
    return this.controlPlane.request({
      method,
      path,
      requestId: request.id,
      headers: { [PRINCIPAL_HEADER]: principalHeader(request) },
      ...(body !== undefined && { contentType: 'application/json', body }),
    });
  }
}

const usersPath = (tenant: string): string => `/internal/v1/tenants/${encodeURIComponent(tenant)}/users`;
