import { Controller, Get, Put, Req, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { type AuthorizedRequest, callerPrincipal, RequirePermission } from '../auth/permission';
import { ControlPlaneRelay } from '../forwarding/control-plane-relay';

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

/** The control plane learns the caller from the principal header, not from the token. */
const asPrincipal = {
  forwardAuthorization: false,
  upstreamHeaders: (request: AuthorizedRequest) => ({ [PRINCIPAL_HEADER]: principalHeader(request) }),
} as const;

/**
 * Tenant user administration. The permission guard asks the sidecar (users.read / users.write on
 * the route's tenant: the token's scope, then the user's role policies); the control plane keeps
 * the rules that depend on the data (the user's tenant, the role bundle, who grants global_admin).
 */
@Controller('api/v1/tenants/:tenant/users')
export class TenantUsersController {
  constructor(private readonly relay: ControlPlaneRelay) {}

  @Get()
  @RequirePermission('users.read', { tenantParam: 'tenant' })
  list(@Req() request: AuthorizedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.relay.forward(request, reply, { to: '/internal/v1/tenants/:tenant/users', ...asPrincipal });
  }

  @Get(':id')
  @RequirePermission('users.read', { tenantParam: 'tenant' })
  get(@Req() request: AuthorizedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.relay.forward(request, reply, { to: '/internal/v1/tenants/:tenant/users/:id', ...asPrincipal });
  }

  /** JSON `{roles}`: names of the role bundle; only a global_admin grants global_admin. */
  @Put(':id/roles')
  @RequirePermission('users.write', { tenantParam: 'tenant' })
  setRoles(@Req() request: AuthorizedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.relay.forward(request, reply, {
      to: '/internal/v1/tenants/:tenant/users/:id/roles',
      body: 'json',
      ...asPrincipal,
    });
  }
}
