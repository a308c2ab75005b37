import { Body, Controller, Param, ParseIntPipe, Query } from '@nestjs/common';
import {
  DEFAULT_PAGE_SIZE,
  ListSecretsQueryDto,
  ReadSecretQueryDto,
  SECRET_OPERATIONS,
  SecretWriteDto,
} from '@platform/contract';
import { type ActingPrincipal, SecretVault, type VersionState } from '@platform/domain';
import { Implements } from '../platform/implements';
import { Caller } from '../tenants/principal';
import { toSecretMetadataResponse, toSecretValueResponse, toSecretVersionResponse } from './secrets-wire';

/**
 * A tenant's secrets (docs/secrets.md), for a caller the backend or a sidecar already authorized
 * (`secrets.read` / `secrets.write`, named in `x-platform-principal`). The vault checks the
 * caller's tenant again and audits every write and every read.
 */
@Controller()
export class InternalSecretsController {
  constructor(private readonly vault: SecretVault) {}

  @Implements(SECRET_OPERATIONS.list)
  async list(
    @Param('tenant') tenant: string,
    @Query() query: ListSecretsQueryDto,
    @Caller() caller: ActingPrincipal,
  ) {
    const limit = query.limit ?? DEFAULT_PAGE_SIZE;
    const names = await this.vault.list(caller, tenant, query.after ?? '', limit);
    return { names, next_after: names.length === limit ? names[names.length - 1] : null };
  }

  @Implements(SECRET_OPERATIONS.put)
  async put(
    @Param('tenant') tenant: string,
    @Param('name') name: string,
    @Body() body: SecretWriteDto,
    @Caller() caller: ActingPrincipal,
  ) {
    return toSecretVersionResponse(await this.vault.put(caller, tenant, name, body.value, body.cas));
  }

  @Implements(SECRET_OPERATIONS.read)
  async read(
    @Param('tenant') tenant: string,
    @Param('name') name: string,
    @Query() query: ReadSecretQueryDto,
    @Caller() caller: ActingPrincipal,
  ) {
    return toSecretValueResponse(await this.vault.read(caller, tenant, name, query.version));
  }

  @Implements(SECRET_OPERATIONS.metadata)
  async metadata(
    @Param('tenant') tenant: string,
    @Param('name') name: string,
    @Caller() caller: ActingPrincipal,
  ) {
    return toSecretMetadataResponse(await this.vault.metadata(caller, tenant, name));
  }

  @Implements(SECRET_OPERATIONS.delete)
  async delete(
    @Param('tenant') tenant: string,
    @Param('name') name: string,
    @Caller() caller: ActingPrincipal,
  ) {
    await this.vault.delete(caller, tenant, name);
  }

  @Implements(SECRET_OPERATIONS.softDelete)
  softDelete(
    @Param('tenant') tenant: string,
    @Param('name') name: string,
    @Param('version', ParseIntPipe) version: number,
    @Caller() caller: ActingPrincipal,
  ) {
    return this.change(caller, tenant, name, version, 'deleted');
  }

  @Implements(SECRET_OPERATIONS.undelete)
  undelete(
    @Param('tenant') tenant: string,
    @Param('name') name: string,
    @Param('version', ParseIntPipe) version: number,
    @Caller() caller: ActingPrincipal,
  ) {
    return this.change(caller, tenant, name, version, 'undeleted');
  }

  @Implements(SECRET_OPERATIONS.destroy)
  destroy(
    @Param('tenant') tenant: string,
    @Param('name') name: string,
    @Param('version', ParseIntPipe) version: number,
    @Caller() caller: ActingPrincipal,
  ) {
    return this.change(caller, tenant, name, version, 'destroyed');
  }

  private async change(
    caller: ActingPrincipal,
    tenant: string,
    name: string,
    version: number,
    state: VersionState,
  ): Promise<void> {
    await this.vault.changeVersion(caller, tenant, name, version, state);
  }
}
