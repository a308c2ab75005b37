import { Body, Controller, Get, Headers, Param, Put } from '@nestjs/common';
import { RolesUpdateDto } from '@platform/contract';
import { UserAdministration } from '@platform/domain';
import { toUserResponse } from '../user-flow/dto';
import { PRINCIPAL_HEADER } from '@platform/internal';
import { readPrincipal } from './principal';
import { InternalRoute } from '../platform/route-authority';

/**
 * Tenant user administration (docs/internal-api.md, "The user-forwarding model"). The backend
 * already checked `users.read` / `users.write` on the tenant through the sidecar and says who
 * the caller is in `x-platform-principal`.
 */
@Controller('internal/v1/tenants/:tenant/users')
@InternalRoute({ tenantParam: 'tenant' })
export class InternalTenantUsersController {
  constructor(private readonly users: UserAdministration) {}

  @Get()
  async list(@Param('tenant') tenant: string, @Headers(PRINCIPAL_HEADER) principal?: string) {
    return (await this.users.list(readPrincipal(principal), tenant)).map(toUserResponse);
  }

  @Get(':id')
  async get(
    @Param('tenant') tenant: string,
    @Param('id') id: string,
    @Headers(PRINCIPAL_HEADER) principal?: string,
  ) {
    return toUserResponse(await this.users.get(readPrincipal(principal), tenant, id));
  }

  @Put(':id/roles')
  async setRoles(
    @Param('tenant') tenant: string,
    @Param('id') id: string,
    @Body() body: RolesUpdateDto,
    @Headers(PRINCIPAL_HEADER) principal?: string,
  ) {
    return toUserResponse(await this.users.setRoles(readPrincipal(principal), tenant, id, body.roles));
  }
}
