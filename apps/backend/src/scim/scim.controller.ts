import { applyDecorators, Controller, Delete, Get, Patch, Post, Put, Req, Res } from '@nestjs/common';
import { ApiParam, ApiQuery, ApiResponse } from '@nestjs/swagger';
import {
  IfMatch,
  internalPathOf,
  type Operation,
  SCIM_OPERATIONS,
  ScimAnswers,
  ScimBody,
  ScimGroupDto,
  ScimListResponseDto,
  ScimOperation,
  ScimPatchOpDto,
  ScimRefuses,
  ScimUserDto,
} from '@platform/contract';
import { headerValue } from '@platform/http';
import { PRINCIPAL_HEADER, TENANT_HEADER } from '@platform/internal';
import type { FastifyReply } from 'fastify';
import { type AuthorizedRequest, principalHeader, RequirePermission } from '../auth/permission';
import { ControlPlaneRelay } from '../forwarding/control-plane-relay';

const LIST_QUERY = [
  'filter',
  'startIndex',
  'count',
  'sortBy',
  'sortOrder',
  'attributes',
  'excludedAttributes',
];
const PROJECTION_QUERY = ['attributes', 'excludedAttributes'];

const Id = () => ApiParam({ name: 'id', required: true, description: 'The resource id.' });
const LIST_PARAMETERS: Array<[string, string]> = [
  [
    'filter',
    'RFC 7644 section 3.4.2.2, e.g. `userName eq "bjensen@example.com"`; values compared case-insensitively unless the attribute is caseExact.',
  ],
  ['startIndex', '1-based; below 1 reads as 1.'],
  ['count', 'At most 200 (the default); below 0 reads as 0.'],
  ['sortBy', 'An attribute path; unassigned values sort last.'],
  ['sortOrder', '`ascending` (default) or `descending`.'],
  ['attributes', 'Comma-separated attributes to return (id and schemas always are).'],
  ['excludedAttributes', 'Comma-separated attributes to leave out.'],
];
const Projection = () =>
  applyDecorators(
    ...LIST_PARAMETERS.slice(-2).map(([name, description]) =>
      ApiQuery({ name, required: false, description, type: String }),
    ),
  );
const ListQuery = () =>
  applyDecorators(
    ...LIST_PARAMETERS.map(([name, description]) =>
      ApiQuery({ name, required: false, description, type: String }),
    ),
  );
const Read = (id: string, summary: string, description?: string) =>
  ScimOperation({
    id,
    summary,
    description: `Permission \`scim.read\` in the caller’s tenant. ${description ?? ''}`.trim(),
  });
const Write = (id: string, summary: string, description?: string) =>
  ScimOperation({
    id,
    summary,
    description: `Permission \`scim.write\` in the caller’s tenant. ${description ?? ''}`.trim(),
  });
const NO_SUCH = 'No such resource in the tenant (also when it is in another one).';

/**
 * SCIM 2.0 provisioning (RFC 7644; docs/scim.md). The permission guard asks the sidecar for
 * `scim.read` / `scim.write` in the caller's tenant; the control plane decides the rest (which
 * tenant an app provisions, the resources, versions and deprovisioning).
 */
@Controller('scim/v2')
export class ScimController {
  constructor(private readonly relay: ControlPlaneRelay) {}

  @Get('Users')
  @RequirePermission('scim.read', { callerTenant: true })
  @Read(
    'listScimUsers',
    'List or filter the users of the tenant',
    'Identity providers find a user with `filter=userName eq "..."`.',
  )
  @ListQuery()
  @ScimAnswers(200, ScimListResponseDto, 'A ListResponse of ScimUser resources.')
  @ScimRefuses(
    400,
    '`invalidFilter` (the filter does not parse) or `invalidValue` (a paging or sorting parameter).',
  )
  listUsers(@Req() request: AuthorizedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.forward(request, reply, SCIM_OPERATIONS.list, 'Users', LIST_QUERY);
  }

  @Post('Users')
  @RequirePermission('scim.write', { callerTenant: true })
  @Write('createScimUser', 'Provision a user')
  @ScimBody(ScimUserDto)
  @ScimAnswers(201, ScimUserDto, 'The new user, with `Location` and `ETag`.', true)
  @ScimRefuses(409, '`uniqueness`: the tenant has a user of that userName (compared case-insensitively).')
  createUser(@Req() request: AuthorizedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.forward(request, reply, SCIM_OPERATIONS.create, 'Users');
  }

  @Get('Users/:id')
  @RequirePermission('scim.read', { callerTenant: true })
  @Read('getScimUser', 'One user')
  @Id()
  @Projection()
  @ScimAnswers(200, ScimUserDto, 'The user.', true)
  @ScimRefuses(404, NO_SUCH)
  getUser(@Req() request: AuthorizedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.forward(request, reply, SCIM_OPERATIONS.get, 'Users', PROJECTION_QUERY);
  }

  @Put('Users/:id')
  @RequirePermission('scim.write', { callerTenant: true })
  @Write(
    'replaceScimUser',
    'Replace a user',
    '`active: false` revokes every session and token of the user at once.',
  )
  @Id()
  @ScimBody(ScimUserDto)
  @IfMatch()
  @ScimAnswers(200, ScimUserDto, 'The user as replaced.', true)
  @ScimRefuses(404, NO_SUCH)
  @ScimRefuses(409, '`uniqueness`: another user of the tenant has that userName.')
  replaceUser(@Req() request: AuthorizedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.forward(request, reply, SCIM_OPERATIONS.replace, 'Users');
  }

  @Patch('Users/:id')
  @RequirePermission('scim.write', { callerTenant: true })
  @Write(
    'patchScimUser',
    'Change a user',
    'add / remove / replace, with or without `path`, value filters (`emails[type eq "work"].value`), `op` in any case. `active: false` revokes every session and token of the user at once.',
  )
  @Id()
  @ScimBody(ScimPatchOpDto)
  @IfMatch()
  @ScimAnswers(200, ScimUserDto, 'The user as changed.', true)
  @ScimRefuses(404, NO_SUCH)
  @ScimRefuses(409, '`uniqueness`: another user of the tenant has that userName.')
  patchUser(@Req() request: AuthorizedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.forward(request, reply, SCIM_OPERATIONS.patch, 'Users');
  }

  @Delete('Users/:id')
  @RequirePermission('scim.write', { callerTenant: true })
  @Write(
    'deleteScimUser',
    'Deprovision and delete a user',
    'Its sessions, refresh tokens and access tokens are revoked at once.',
  )
  @Id()
  @IfMatch()
  @ApiResponse({ status: 204, description: 'Deprovisioned and deleted.' })
  @ScimRefuses(404, NO_SUCH)
  deleteUser(@Req() request: AuthorizedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.forward(request, reply, SCIM_OPERATIONS.delete, 'Users');
  }

  @Get('Groups')
  @RequirePermission('scim.read', { callerTenant: true })
  @Read('listScimGroups', 'List or filter the groups of the tenant')
  @ListQuery()
  @ScimAnswers(200, ScimListResponseDto, 'A ListResponse of ScimGroup resources.')
  @ScimRefuses(400, '`invalidFilter` or `invalidValue`.')
  listGroups(@Req() request: AuthorizedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.forward(request, reply, SCIM_OPERATIONS.list, 'Groups', LIST_QUERY);
  }

  @Post('Groups')
  @RequirePermission('scim.write', { callerTenant: true })
  @Write(
    'createScimGroup',
    'Provision a group',
    'Members must be users of the tenant; roles names of the role bundle.',
  )
  @ScimBody(ScimGroupDto)
  @ScimAnswers(201, ScimGroupDto, 'The new group, with `Location` and `ETag`.', true)
  createGroup(@Req() request: AuthorizedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.forward(request, reply, SCIM_OPERATIONS.create, 'Groups');
  }

  @Get('Groups/:id')
  @RequirePermission('scim.read', { callerTenant: true })
  @Read('getScimGroup', 'One group')
  @Id()
  @Projection()
  @ScimAnswers(200, ScimGroupDto, 'The group.', true)
  @ScimRefuses(404, NO_SUCH)
  getGroup(@Req() request: AuthorizedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.forward(request, reply, SCIM_OPERATIONS.get, 'Groups', PROJECTION_QUERY);
  }

  @Put('Groups/:id')
  @RequirePermission('scim.write', { callerTenant: true })
  @Write('replaceScimGroup', 'Replace a group')
  @Id()
  @ScimBody(ScimGroupDto)
  @IfMatch()
  @ScimAnswers(200, ScimGroupDto, 'The group as replaced.', true)
  @ScimRefuses(404, NO_SUCH)
  replaceGroup(@Req() request: AuthorizedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.forward(request, reply, SCIM_OPERATIONS.replace, 'Groups');
  }

  @Patch('Groups/:id')
  @RequirePermission('scim.write', { callerTenant: true })
  @Write(
    'patchScimGroup',
    'Change a group',
    'Members added, removed by value filter (`members[value eq "..."]`) or replaced.',
  )
  @Id()
  @ScimBody(ScimPatchOpDto)
  @IfMatch()
  @ScimAnswers(200, ScimGroupDto, 'The group as changed.', true)
  @ScimRefuses(404, NO_SUCH)
  patchGroup(@Req() request: AuthorizedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.forward(request, reply, SCIM_OPERATIONS.patch, 'Groups');
  }

  @Delete('Groups/:id')
  @RequirePermission('scim.write', { callerTenant: true })
  @Write(
    'deleteScimGroup',
    'Delete a group',
    'Its members lose the roles it granted from their next token on.',
  )
  @Id()
  @IfMatch()
  @ApiResponse({ status: 204, description: 'Deleted.' })
  @ScimRefuses(404, NO_SUCH)
  deleteGroup(@Req() request: AuthorizedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.forward(request, reply, SCIM_OPERATIONS.delete, 'Groups');
  }

  /**
   * To the control plane's route of `entry` for `resource` (it serves Users and Groups through
   * one route per verb), with the body the entry takes, the `query` parameters named, and the
   * caller as the principal header, plus the tenant it names and the If-Match it sends.
   */
  private forward(
    request: AuthorizedRequest,
    reply: FastifyReply,
    entry: Operation,
    resource: 'Users' | 'Groups',
    query?: readonly string[],
  ): Promise<void> {
    return this.relay.forward(request, reply, {
      to: `/${internalPathOf(entry).replace(':resource', resource)}`,
      ...(entry.body !== undefined && { body: entry.body.type }),
      ...(query !== undefined && { query }),
      forwardAuthorization: false,
      upstreamHeaders: () => {
        const tenant = headerValue(request.headers[TENANT_HEADER]);
        const ifMatch = headerValue(request.headers['if-match']);
        return {
          [PRINCIPAL_HEADER]: principalHeader(request),
          ...(tenant !== undefined && { [TENANT_HEADER]: tenant }),
          ...(ifMatch !== undefined && { 'if-match': ifMatch }),
        };
      },
    });
  }
}
