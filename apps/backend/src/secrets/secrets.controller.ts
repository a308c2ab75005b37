import { applyDecorators, Controller, Delete, Get, Post, Put, Req, Res } from '@nestjs/common';
import { ApiParam, ApiQuery, ApiResponse } from '@nestjs/swagger';
import {
  Answers,
  JsonBody,
  ListSecretsQueryDto,
  PermissionOperation,
  ReadSecretQueryDto,
  Refuses,
  SecretMetadataDto,
  SecretNamesPageDto,
  SecretValueDto,
  SecretVersionDto,
  SecretWriteDto,
} from '@platform/contract';
import type { FastifyReply } from 'fastify';
import { OpaqueBodyMembers } from '@platform/http';
import { asPrincipal, type AuthorizedRequest, RequirePermission } from '../auth/permission';
import { ControlPlaneRelay } from '../forwarding/control-plane-relay';

const TO = '/internal/v1/tenants/:tenant/secrets';
const NO_SECRET = 'No such secret (or version) in the tenant.';
const READ =
  'Permission `secrets.read` on `{tenant}` (a user of the tenant, `global_admin`, or an application with the scope).';
const WRITE = 'Permission `secrets.write` on `{tenant}`. Audited.';

const Path = () =>
  applyDecorators(
    ApiParam({ name: 'tenant', required: true, example: 'acme' }),
    ApiParam({ name: 'name', required: true, example: 'db-password' }),
  );
const Version = () => ApiParam({ name: 'version', required: true, example: 2 });

/**
 * A tenant's secrets (docs/secrets.md): Vault KV v2's model (versions, check-and-set, soft
 * delete, destroy), values sealed at rest by the control plane, every read audited.
 */
@Controller('api/v1/tenants/:tenant/secrets')
export class SecretsController {
  constructor(private readonly relay: ControlPlaneRelay) {}

  @Get()
  @RequirePermission('secrets.read', { tenantParam: 'tenant' })
  @PermissionOperation({
    id: 'listSecrets',
    tag: 'Secrets',
    summary: 'The names of a tenant’s secrets',
    description: `${READ} Ordered by name, paged; no values.`,
  })
  @ApiParam({ name: 'tenant', required: true, example: 'acme' })
  @ApiQuery({ type: ListSecretsQueryDto })
  @Answers(200, SecretNamesPageDto, 'One page of names.')
  @Refuses(400, 'A malformed cursor or limit.')
  list(@Req() request: AuthorizedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.relay.forward(request, reply, { to: TO, query: ['after', 'limit'], ...asPrincipal });
  }

  @Put(':name')
  @RequirePermission('secrets.write', { tenantParam: 'tenant' })
  @PermissionOperation({
    id: 'writeSecret',
    tag: 'Secrets',
    summary: 'Write a new version of a secret',
    description: `${WRITE} Creates the secret at version 1, or adds the next version. With \`cas\`, only if the current version is that one (\`0\`: only if the secret does not exist); two writers racing on the same version: one wins, the other gets **409**. The value is sealed before it is stored and never answered here.`,
  })
  @Path()
  @OpaqueBodyMembers('value')
  @JsonBody(SecretWriteDto)
  @Answers(200, SecretVersionDto, 'The version written.')
  @Refuses(400, 'A bad name, a value that is not a string or over 32 KiB, a negative `cas`.')
  @Refuses(409, 'Check-and-set failed: the current version is another.')
  put(@Req() request: AuthorizedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.relay.forward(request, reply, { to: `${TO}/:name`, body: 'json', ...asPrincipal });
  }

  @Get(':name')
  @RequirePermission('secrets.read', { tenantParam: 'tenant' })
  @PermissionOperation({
    id: 'readSecret',
    tag: 'Secrets',
    summary: 'Read a secret’s value',
    description: `${READ} The current version, or \`version\`. A soft-deleted or destroyed version is 404. Audited (\`secret.read\`, with who and which version) before the value is answered.`,
  })
  @Path()
  @ApiQuery({ type: ReadSecretQueryDto })
  @Answers(200, SecretValueDto, 'The value.')
  @Refuses(404, NO_SECRET)
  read(@Req() request: AuthorizedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.relay.forward(request, reply, { to: `${TO}/:name`, query: ['version'], ...asPrincipal });
  }

  @Get(':name/metadata')
  @RequirePermission('secrets.read', { tenantParam: 'tenant' })
  @PermissionOperation({
    id: 'getSecretMetadata',
    tag: 'Secrets',
    summary: 'A secret’s versions, without values',
    description: READ,
  })
  @Path()
  @Answers(200, SecretMetadataDto, 'The versions and their state.')
  @Refuses(404, NO_SECRET)
  metadata(@Req() request: AuthorizedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.relay.forward(request, reply, { to: `${TO}/:name/metadata`, ...asPrincipal });
  }

  @Delete(':name')
  @RequirePermission('secrets.write', { tenantParam: 'tenant' })
  @PermissionOperation({
    id: 'deleteSecret',
    tag: 'Secrets',
    summary: 'Delete a secret and every version',
    description: `${WRITE} Irreversible.`,
  })
  @Path()
  @ApiResponse({ status: 204, description: 'Deleted.' })
  @Refuses(404, NO_SECRET)
  delete(@Req() request: AuthorizedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.relay.forward(request, reply, { to: `${TO}/:name`, ...asPrincipal });
  }

  @Delete(':name/versions/:version')
  @RequirePermission('secrets.write', { tenantParam: 'tenant' })
  @PermissionOperation({
    id: 'softDeleteSecretVersion',
    tag: 'Secrets',
    summary: 'Soft-delete a version',
    description: `${WRITE} The value stays sealed in the store; reads of it are 404 until it is undeleted.`,
  })
  @Path()
  @Version()
  @ApiResponse({ status: 204, description: 'Deleted.' })
  @Refuses(404, NO_SECRET)
  softDelete(@Req() request: AuthorizedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.relay.forward(request, reply, { to: `${TO}/:name/versions/:version`, ...asPrincipal });
  }

  @Post(':name/versions/:version/undelete')
  @RequirePermission('secrets.write', { tenantParam: 'tenant' })
  @PermissionOperation({
    id: 'undeleteSecretVersion',
    tag: 'Secrets',
    summary: 'Undelete a version',
    description: WRITE,
  })
  @Path()
  @Version()
  @ApiResponse({ status: 204, description: 'Live again.' })
  @Refuses(404, NO_SECRET)
  @Refuses(409, 'The version is destroyed.')
  undelete(@Req() request: AuthorizedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.relay.forward(request, reply, {
      to: `${TO}/:name/versions/:version/undelete`,
      ...asPrincipal,
    });
  }

  @Post(':name/versions/:version/destroy')
  @RequirePermission('secrets.write', { tenantParam: 'tenant' })
  @PermissionOperation({
    id: 'destroySecretVersion',
    tag: 'Secrets',
    summary: 'Destroy a version',
    description: `${WRITE} Its sealed value and wrapped key are erased; the version stays listed as destroyed.`,
  })
  @Path()
  @Version()
  @ApiResponse({ status: 204, description: 'Destroyed.' })
  @Refuses(404, NO_SECRET)
  destroy(@Req() request: AuthorizedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.relay.forward(request, reply, {
      to: `${TO}/:name/versions/:version/destroy`,
      ...asPrincipal,
    });
  }
}
