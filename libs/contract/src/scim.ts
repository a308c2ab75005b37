import { applyDecorators, type Type } from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiExtraModels,
  ApiHeader,
  ApiOperation,
  ApiProperty,
  ApiPropertyOptional,
  ApiResponse,
  ApiSchema,
  ApiSecurity,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import { ANY_JSON_SCHEMA } from './fields';
import { operation } from './operation-table';

/**
 * The SCIM 2.0 wire shapes (RFC 7643, RFC 7644) as the OpenAPI document shows them. The control
 * plane reads SCIM bodies against the SCIM schemas themselves (libs/domain/src/scim: attribute
 * names case-insensitive, unknown attributes ignored, as RFC 7644 asks), so these classes document
 * and do not validate.
 */
export const SCIM_CONTENT_TYPE = 'application/scim+json';

const ref = (model: Type<unknown>) => ({ $ref: getSchemaPath(model) });

@ApiSchema({ name: 'ScimMeta', description: 'RFC 7643 section 3.1 `meta`.' })
export class ScimMetaDto {
  @ApiProperty({ enum: ['User', 'Group'] }) resourceType: string;
  @ApiProperty({ format: 'date-time' }) created: string;
  @ApiProperty({ format: 'date-time' }) lastModified: string;
  @ApiProperty({ example: 'W/"3"', description: 'The ETag of this version; send it as If-Match.' })
  version: string;
  @ApiProperty({ format: 'uri' }) location: string;
}

@ApiSchema({
  name: 'ScimMultiValue',
  description:
    'An email, phone number, group or member entry. Group and member entries also carry `$ref`, the URI of the resource they name (left out of this schema: OpenAPI tools read a `$ref` member as a reference).',
})
export class ScimMultiValueDto {
  @ApiProperty() value: string;
  @ApiPropertyOptional() display?: string;
  @ApiPropertyOptional() type?: string;
  @ApiPropertyOptional() primary?: boolean;
}

@ApiSchema({ name: 'ScimName', description: 'The components of a user’s name.' })
export class ScimNameDto {
  @ApiPropertyOptional() formatted?: string;
  @ApiPropertyOptional() familyName?: string;
  @ApiPropertyOptional() givenName?: string;
  @ApiPropertyOptional() middleName?: string;
  @ApiPropertyOptional() honorificPrefix?: string;
  @ApiPropertyOptional() honorificSuffix?: string;
}

@ApiSchema({
  name: 'ScimEnterpriseUser',
  description: '`urn:ietf:params:scim:schemas:extension:enterprise:2.0:User` (RFC 7643 section 4.3).',
})
export class ScimEnterpriseUserDto {
  @ApiPropertyOptional() employeeNumber?: string;
  @ApiPropertyOptional() costCenter?: string;
  @ApiPropertyOptional() organization?: string;
  @ApiPropertyOptional() division?: string;
  @ApiPropertyOptional() department?: string;
  @ApiPropertyOptional({ example: { value: '2819c223-7f76-453a-919d-413861904646' } }) manager?: {
    value: string;
  };
}

@ApiSchema({
  name: 'ScimUser',
  description:
    'A SCIM User (RFC 7643 section 4.1) of the caller’s tenant. `userName` is unique in the tenant, compared case-insensitively; `active: false` revokes the user’s sessions, refresh tokens and access tokens at once. Also the shape of a POST or PUT body (`id`, `meta` and `groups` are ignored there). Other RFC 7643 attributes (nickName, title, addresses, ...) are kept as given; see `/scim/v2/Schemas`.',
})
export class ScimUserDto {
  @ApiProperty({ type: [String], example: ['urn:ietf:params:scim:schemas:core:2.0:User'] }) schemas: string[];
  @ApiProperty({ readOnly: true }) id: string;
  @ApiPropertyOptional() externalId?: string;
  @ApiProperty({ example: 'bjensen@example.com' }) userName: string;
  @ApiPropertyOptional({ type: ScimNameDto }) name?: ScimNameDto;
  @ApiPropertyOptional() displayName?: string;
  @ApiPropertyOptional() active?: boolean;
  @ApiPropertyOptional({ type: [ScimMultiValueDto] }) emails?: ScimMultiValueDto[];
  @ApiPropertyOptional({ type: [ScimMultiValueDto] }) phoneNumbers?: ScimMultiValueDto[];
  @ApiPropertyOptional({ type: [ScimMultiValueDto], readOnly: true }) groups?: ScimMultiValueDto[];
  @ApiPropertyOptional({
    name: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User',
    type: ScimEnterpriseUserDto,
  })
  enterprise?: ScimEnterpriseUserDto;
  @ApiProperty({ type: ScimMetaDto, readOnly: true }) meta: ScimMetaDto;
}

@ApiSchema({
  name: 'ScimGroup',
  description:
    'A SCIM Group (RFC 7643 section 4.2). Members are users of the same tenant; the extension `urn:platform:params:scim:schemas:extension:roles:2.0:Group` carries `roles`, platform roles every member holds (docs/scim.md).',
})
export class ScimGroupDto {
  @ApiProperty({ type: [String], example: ['urn:ietf:params:scim:schemas:core:2.0:Group'] })
  schemas: string[];
  @ApiProperty({ readOnly: true }) id: string;
  @ApiPropertyOptional() externalId?: string;
  @ApiProperty({ example: 'Engineering' }) displayName: string;
  @ApiPropertyOptional({ type: [ScimMultiValueDto] }) members?: ScimMultiValueDto[];
  @ApiPropertyOptional({
    name: 'urn:platform:params:scim:schemas:extension:roles:2.0:Group',
    example: { roles: ['tenant_admin'] },
  })
  roles?: { roles: string[] };
  @ApiProperty({ type: ScimMetaDto, readOnly: true }) meta: ScimMetaDto;
}

@ApiSchema({
  name: 'ScimPatchOperation',
  description: 'One operation of a PatchOp (RFC 7644 section 3.5.2).',
})
export class ScimPatchOperationDto {
  @ApiProperty({ enum: ['add', 'remove', 'replace'], description: 'Case-insensitive (`Replace` too).' })
  op: string;
  @ApiPropertyOptional({ example: 'emails[type eq "work"].value' }) path?: string;
  @ApiPropertyOptional({ description: 'Any JSON value.', ...ANY_JSON_SCHEMA }) value?: unknown;
}

@ApiSchema({ name: 'ScimPatchOp', description: 'RFC 7644 section 3.5.2 PATCH body.' })
export class ScimPatchOpDto {
  @ApiProperty({ type: [String], example: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'] })
  schemas: string[];
  @ApiProperty({ type: [ScimPatchOperationDto] }) Operations: ScimPatchOperationDto[];
}

@ApiSchema({ name: 'ScimListResponse', description: 'RFC 7644 section 3.4.2 ListResponse.' })
export class ScimListResponseDto {
  @ApiProperty({ type: [String], example: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'] })
  schemas: string[];
  @ApiProperty() totalResults: number;
  @ApiProperty() startIndex: number;
  @ApiProperty() itemsPerPage: number;
  @ApiProperty({ type: 'array', items: { type: 'object' }, description: 'ScimUser or ScimGroup resources.' })
  Resources: object[];
}

@ApiSchema({ name: 'ScimError', description: 'RFC 7644 section 3.12 error.' })
export class ScimErrorDto {
  @ApiProperty({ type: [String], example: ['urn:ietf:params:scim:api:messages:2.0:Error'] })
  schemas: string[];
  @ApiProperty({ example: '409', description: 'The HTTP status, as a string.' }) status: string;
  @ApiPropertyOptional({
    enum: [
      'invalidFilter',
      'tooMany',
      'uniqueness',
      'mutability',
      'invalidSyntax',
      'invalidPath',
      'noTarget',
      'invalidValue',
      'invalidVers',
    ],
  })
  scimType?: string;
  @ApiProperty() detail: string;
}

@ApiSchema({
  name: 'ScimDiscovery',
  description: 'ServiceProviderConfig, a ResourceType or a Schema (RFC 7643 sections 5-7).',
})
export class ScimDiscoveryDto {
  @ApiProperty({ type: [String] }) schemas: string[];
}

const ETAG = { ETag: { description: 'The version of the resource (`W/"3"`).', schema: { type: 'string' } } };

/** A SCIM answer of `model`. */
export const ScimAnswers = (status: number, model: Type<unknown>, description: string, etag = false) =>
  applyDecorators(
    ApiExtraModels(model),
    ApiResponse({
      status,
      description,
      ...(etag && { headers: ETAG as never }),
      content: { [SCIM_CONTENT_TYPE]: { schema: ref(model) } },
    }),
  );

/** A SCIM error answer. */
export const ScimRefuses = (status: number, description: string) =>
  ApiResponse({ status, description, content: { [SCIM_CONTENT_TYPE]: { schema: ref(ScimErrorDto) } } });

/** A body of `model`, as `application/scim+json` (or `application/json`). */
export const ScimBody = (model: Type<unknown>) =>
  applyDecorators(
    ApiConsumes(SCIM_CONTENT_TYPE, 'application/json'),
    ApiBody({ type: model }),
    ScimRefuses(
      400,
      'The body is not what the schema allows: `invalidSyntax`, `invalidValue`, `mutability`, `invalidPath`, `noTarget`.',
    ),
    ScimRefuses(413, 'The body exceeds 64 KiB; refused before any route runs.'),
    ScimRefuses(415, 'The body is neither `application/scim+json` nor `application/json`.'),
  );

/** `If-Match` on a write (RFC 7644 section 3.14). */
export const IfMatch = () =>
  applyDecorators(
    ApiHeader({
      name: 'If-Match',
      required: false,
      description: 'The ETag the change is based on; another version is 412.',
    }),
    ScimRefuses(412, 'If-Match names another version than the stored one.'),
  );

/**
 * A SCIM 2.0 route: an access token with `scim.read` / `scim.write` (a service app, bound to its
 * tenant), a tenant_admin of the tenant, or a platform admin; every error is a ScimError.
 */
export const ScimOperation = (doc: { id: string; summary: string; description?: string }) =>
  applyDecorators(
    ApiOperation({ operationId: doc.id, summary: doc.summary, description: doc.description }),
    ApiTags('SCIM'),
    ApiSecurity('bearerAuth'),
    ApiExtraModels(ScimErrorDto),
    ApiHeader({
      name: 'X-Platform-Tenant',
      required: false,
      description:
        'A platform admin provisions into this tenant (default: its own, else `default`); anyone else may name only its own.',
    }),
    ScimRefuses(401, 'No access token, or an invalid, expired or revoked one (with the RFC 6750 challenge).'),
    ScimRefuses(
      403,
      'The token may not do this in the tenant (scope, role policy, another tenant, global_admin).',
    ),
    ScimRefuses(500, 'An unexpected failure (logged, never detailed).'),
    ScimRefuses(503, 'The sidecar or the control plane cannot be reached: the backend fails closed.'),
  );

const RESOURCES = 'internal/v1/scim/v2/:resource';
const RESOURCE = 'internal/v1/scim/v2/:resource/:id';
const INTERNAL = { kind: 'internal' } as const;
const OF_TYPE = { resource: { example: 'Users', description: '`Users` or `Groups`.' } };
const OF_ONE = { ...OF_TYPE, id: { description: 'The resource id.' } };
/**
 * What the SCIM routes take and answer: JSON the SCIM rules read and build against the SCIM
 * schemas themselves (libs/domain/src/scim), so no DTO above types it.
 */
const SCIM_JSON = Object;
const SCIM_BODY = { type: 'scim', model: SCIM_JSON } as const;

/**
 * The control plane's SCIM 2.0 routes (docs/scim.md): Users and Groups of the caller's tenant,
 * one route per verb with the resource type as a parameter. The edge's SCIM controller serves
 * `/scim/v2/Users` and `/scim/v2/Groups` (documented there in the SCIM error format) and forwards
 * each to the route here with `resource` set, naming the caller it authorized for `scim.read` /
 * `scim.write` in `x-platform-principal`, and the tenant and If-Match it was sent.
 */
export const SCIM_OPERATIONS = {
  list: operation({
    id: 'listScimResources',
    tag: 'Internal',
    summary: 'List or filter the users or groups of the tenant',
    method: 'GET',
    path: RESOURCES,
    caller: INTERNAL,
    params: OF_TYPE,
    answer: { status: 200, model: SCIM_JSON, description: 'A ListResponse.' },
  }),
  create: operation({
    id: 'createScimResource',
    tag: 'Internal',
    summary: 'Provision a user or a group',
    method: 'POST',
    path: RESOURCES,
    caller: INTERNAL,
    params: OF_TYPE,
    body: SCIM_BODY,
    answer: { status: 201, model: SCIM_JSON, description: 'The new resource, with `Location` and `ETag`.' },
  }),
  get: operation({
    id: 'getScimResource',
    tag: 'Internal',
    summary: 'One user or group',
    method: 'GET',
    path: RESOURCE,
    caller: INTERNAL,
    params: OF_ONE,
    answer: { status: 200, model: SCIM_JSON, description: 'The resource, with `ETag`.' },
  }),
  replace: operation({
    id: 'replaceScimResource',
    tag: 'Internal',
    summary: 'Replace a user or a group',
    method: 'PUT',
    path: RESOURCE,
    caller: INTERNAL,
    params: OF_ONE,
    body: SCIM_BODY,
    answer: { status: 200, model: SCIM_JSON, description: 'The resource as replaced, with `ETag`.' },
  }),
  patch: operation({
    id: 'patchScimResource',
    tag: 'Internal',
    summary: 'Change a user or a group',
    method: 'PATCH',
    path: RESOURCE,
    caller: INTERNAL,
    params: OF_ONE,
    body: SCIM_BODY,
    answer: { status: 200, model: SCIM_JSON, description: 'The resource as changed, with `ETag`.' },
  }),
  delete: operation({
    id: 'deleteScimResource',
    tag: 'Internal',
    summary: 'Deprovision and delete a user, or delete a group',
    method: 'DELETE',
    path: RESOURCE,
    caller: INTERNAL,
    params: OF_ONE,
    answer: { status: 204, description: 'Deleted.' },
  }),
};
