import { Body, Controller, Param } from '@nestjs/common';
import { RolesUpdateDto, TENANT_USER_OPERATIONS } from '@platform/contract';
import { type ActingPrincipal, UserAdministration } from '@platform/domain';
import { toUserResponse } from '../user-flow/dto';
import { Implements } from '../platform/implements';
import { Caller } from './principal';

/**
 * Tenant user administration (docs/internal-api.md, "The user-forwarding model"). The backend
 * already checked `users.read` / `users.write` on the tenant through the sidecar and says who
 * the caller is in `x-platform-principal`.
 */
@Controller()
export class InternalTenantUsersController {
  constructor(private readonly users: UserAdministration) {}

  @Implements(TENANT_USER_OPERATIONS.list)
  async list(@Param('tenant') tenant: string, @Caller() caller: ActingPrincipal) {
    return (await this.users.list(caller, tenant)).map(toUserResponse);
  }

  @Implements(TENANT_USER_OPERATIONS.get)
  async get(@Param('tenant') tenant: string, @Param('id') id: string, @Caller() caller: ActingPrincipal) {
    return toUserResponse(await this.users.get(caller, tenant, id));
  }

  @Implements(TENANT_USER_OPERATIONS.setRoles)
  async setRoles(
    @Param('tenant') tenant: string,
    @Param('id') id: string,
    @Body() body: RolesUpdateDto,
    @Caller() caller: ActingPrincipal,
  ) {
    return toUserResponse(await this.users.setRoles(caller, tenant, id, body.roles));
  }
}
