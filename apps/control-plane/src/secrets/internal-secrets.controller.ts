import {
  Body,
  Controller,
  Delete,
  Get,
  Headers,
  HttpCode,
  Param,
  ParseIntPipe,
  Post,
  Put,
  Query,
} from '@nestjs/common';
import {
  DEFAULT_PAGE_SIZE,
  ListSecretsQueryDto,
  ReadSecretQueryDto,
  SecretWriteDto,
} from '@platform/contract';
import { SecretVault, type VersionState } from '@platform/domain';
import { OpaqueBodyMembers } from '@platform/http';
import { PRINCIPAL_HEADER } from '@platform/internal';
import { readPrincipal } from '../tenants/principal';
import { toSecretMetadataResponse, toSecretValueResponse, toSecretVersionResponse } from './secrets-wire';
import { InternalRoute } from '../platform/route-authority';

/**
 * A tenant's secrets (docs/secrets.md), for a caller the backend or a sidecar already authorized
 * (`secrets.read` / `secrets.write`, named in `x-platform-principal`). The vault checks the
 * caller's tenant again and audits every write and every read.
 */
@Controller('internal/v1/tenants/:tenant/secrets')
@InternalRoute({ tenantParam: 'tenant' })
export class InternalSecretsController {
  constructor(private readonly vault: SecretVault) {}

  @Get()
  async list(
    @Param('tenant') tenant: string,
    @Query() query: ListSecretsQueryDto,
    @Headers(PRINCIPAL_HEADER) principal?: string,
  ) {
    const limit = query.limit ?? DEFAULT_PAGE_SIZE;
    const names = await this.vault.list(readPrincipal(principal), tenant, query.after ?? '', limit);
    return { names, next_after: names.length === limit ? names[names.length - 1] : null };
  }

  @OpaqueBodyMembers('value')
  @Put(':name')
  async put(
    @Param('tenant') tenant: string,
    @Param('name') name: string,
    @Body() body: SecretWriteDto,
    @Headers(PRINCIPAL_HEADER) principal?: string,
  ) {
    const written = await this.vault.put(readPrincipal(principal), tenant, name, body.value, body.cas);
    return toSecretVersionResponse(written);
  }

  @Get(':name')
  async read(
    @Param('tenant') tenant: string,
    @Param('name') name: string,
    @Query() query: ReadSecretQueryDto,
    @Headers(PRINCIPAL_HEADER) principal?: string,
  ) {
    return toSecretValueResponse(
      await this.vault.read(readPrincipal(principal), tenant, name, query.version),
    );
  }

  @Get(':name/metadata')
  async metadata(
    @Param('tenant') tenant: string,
    @Param('name') name: string,
    @Headers(PRINCIPAL_HEADER) principal?: string,
  ) {
    return toSecretMetadataResponse(await this.vault.metadata(readPrincipal(principal), tenant, name));
  }

  @Delete(':name')
  @HttpCode(204)
  async delete(
    @Param('tenant') tenant: string,
    @Param('name') name: string,
    @Headers(PRINCIPAL_HEADER) principal?: string,
  ) {
    await this.vault.delete(readPrincipal(principal), tenant, name);
  }

  @Delete(':name/versions/:version')
  @HttpCode(204)
  softDelete(
    @Param('tenant') tenant: string,
    @Param('name') name: string,
    @Param('version', ParseIntPipe) version: number,
    @Headers(PRINCIPAL_HEADER) principal?: string,
  ) {
    return this.change(tenant, name, version, 'deleted', principal);
  }

  @Post(':name/versions/:version/undelete')
  @HttpCode(204)
  undelete(
    @Param('tenant') tenant: string,
    @Param('name') name: string,
    @Param('version', ParseIntPipe) version: number,
    @Headers(PRINCIPAL_HEADER) principal?: string,
  ) {
    return this.change(tenant, name, version, 'undeleted', principal);
  }

  @Post(':name/versions/:version/destroy')
  @HttpCode(204)
  destroy(
    @Param('tenant') tenant: string,
    @Param('name') name: string,
    @Param('version', ParseIntPipe) version: number,
    @Headers(PRINCIPAL_HEADER) principal?: string,
  ) {
    return this.change(tenant, name, version, 'destroyed', principal);
  }

  private async change(
    tenant: string,
    name: string,
    version: number,
    state: VersionState,
    principal: string | undefined,
  ): Promise<void> {
    await this.vault.changeVersion(readPrincipal(principal), tenant, name, version, state);
  }
}
