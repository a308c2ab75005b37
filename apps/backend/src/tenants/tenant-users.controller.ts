import { Controller, Get, Put, Req, Res } from '@nestjs/common';
import { ApiParam } from '@nestjs/swagger';
import { Answers, JsonBody, PermissionOperation, Refuses, RolesUpdateDto, UserDto } from '@platform/contract';
import type { FastifyReply } from 'fastify';
import { asPrincipal, type AuthorizedRequest, RequirePermission } from '../auth/permission';
import { ControlPlaneRelay } from '../forwarding/control-plane-relay';

const UserId = () => ApiParam({ name: 'id', required: true, description: 'The user id.' });
const NO_USER = 'No such user in this tenant (also when the user is in another one).';

/**
 * Tenant user administration. The permission guard asks the sidecar (users.read / users.write on
 * the route's tenant: the token's scope, then the user's role policies); the control plane keeps
 * the rules that depend on the data (the user's tenant, the role bundle, who grants global_admin).
 */
@Controller('api/v1/tenants/:tenant/users')
@ApiParam({ name: 'tenant', required: true, example: 'acme' })
export class TenantUsersController {
  constructor(private readonly relay: ControlPlaneRelay) {}

  @Get()
  @RequirePermission('users.read', { tenantParam: 'tenant' })
  @PermissionOperation({
    id: 'listTenantUsers',
    tag: 'Tenant users',
    summary: 'List the users of a tenant',
    description:
      'Permission `users.read` on `{tenant}`: a user token needs the scope and a role policy allowing it on that tenant (only `global_admin` crosses tenants); a service token needs a scope covering `users.read` (`admin.*` covers every action).',
  })
  @Answers(200, [UserDto], 'The users.')
  list(@Req() request: AuthorizedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.relay.forward(request, reply, { to: '/internal/v1/tenants/:tenant/users', ...asPrincipal });
  }

  @Get(':id')
  @RequirePermission('users.read', { tenantParam: 'tenant' })
  @PermissionOperation({
    id: 'getTenantUser',
    tag: 'Tenant users',
    summary: 'One user of a tenant',
    description: 'Permission `users.read` on `{tenant}`.',
  })
  @UserId()
  @Answers(200, UserDto, 'The user.')
  @Refuses(404, NO_USER)
  get(@Req() request: AuthorizedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.relay.forward(request, reply, {
      to: '/internal/v1/tenants/:tenant/users/:id',
      ...asPrincipal,
    });
  }

  @Put(':id/roles')
  @RequirePermission('users.write', { tenantParam: 'tenant' })
  @PermissionOperation({
    id: 'setTenantUserRoles',
    tag: 'Tenant users',
    summary: 'Set a user’s roles',
    description:
      'Permission `users.write` on `{tenant}`. Replaces the roles (at least one, names of the role bundle); they take effect in the user’s tokens at the next refresh. Only a `global_admin` may grant or remove `global_admin` (**403**); an unknown role is **400**.',
  })
  @UserId()
  @JsonBody(RolesUpdateDto)
  @Answers(200, UserDto, 'The updated user.')
  @Refuses(404, NO_USER)
  setRoles(@Req() request: AuthorizedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.relay.forward(request, reply, {
      to: '/internal/v1/tenants/:tenant/users/:id/roles',
      body: 'json',
      ...asPrincipal,
    });
  }
}
