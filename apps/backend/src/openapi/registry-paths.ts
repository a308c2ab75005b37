import { headerRef, jsonContent, parameterRef, problemResponse, responseRef, schemaRef } from './components';
import type { OperationObject, Paths, ReferenceObject, ResponseObject } from './openapi-types';

type Responses = Record<string, ResponseObject | ReferenceObject>;

const ADMIN = [{ bearerAuth: [] }];

/** What every admin route can answer besides its own results. */
const ADMIN_ERRORS: Responses = {
  '400': responseRef('BearerInvalidRequest'),
  '401': responseRef('BearerUnauthorized'),
  '403': responseRef('AdminForbidden'),
  '500': responseRef('ServerError'),
  '503': responseRef('Unavailable'),
};

/** Admin routes with a JSON body: their 400 also covers validation, plus 413 and 415. */
function adminBodyErrors(validation: Record<string, string>): Responses {
  return {
    ...ADMIN_ERRORS,
    '400': problemResponse(
      400,
      'Bad Request',
      'The body is not a JSON object or breaks a rule of the registry (problem details), or the Authorization header is malformed (RFC 6750 `invalid_request`, see `BearerProblem`).',
      validation,
    ),
    '413': responseRef('PayloadTooLarge'),
    '415': responseRef('UnsupportedMediaType'),
  };
}

const notFound = (what: string): ResponseObject =>
  problemResponse(404, 'Not Found', `No ${what} with this id.`, {
    notFound: `${what} billing-worker not found`,
  });

const register: OperationObject = {
  operationId: 'registerApp',
  summary: 'Register an application',
  tags: ['Registry'],
  description:
    'Registers an OAuth client. The body is the specification’s fields plus optional `redirect_uris` (required for `web`, `spa` and `cli`). The answer is the application record with `client_secret`, shown this once (no secret for `spa`). Duplicate `client_id`: **409**; a rule broken (client_id syntax, name length, no or undefined declared scope, app type, redirect URIs): **400**. Missing admin token: **401**; a token without `admin.*` or `global_admin`: **403**.',
  security: ADMIN,
  requestBody: { required: true, content: jsonContent(schemaRef('ApplicationRegistration')) },
  responses: {
    '201': { description: 'Registered.', content: jsonContent(schemaRef('RegisteredApplication')) },
    ...adminBodyErrors({
      clientId: 'client_id must be 3 to 64 characters of A-Z a-z 0-9 . _ -',
      undefinedScope: 'undefined scopes: reports.export (define them with POST /api/v1/scopes)',
      redirectUris: 'a web app needs at least one redirect_uri',
    }),
    '409': problemResponse(409, 'Conflict', 'The `client_id` is taken.', {
      duplicate: 'an application with client_id billing-worker already exists',
    }),
  },
};

const list: OperationObject = {
  operationId: 'listApps',
  summary: 'List applications',
  tags: ['Registry'],
  description:
    'A JSON array of applications ordered by `client_id` (the item shape, "not shown" in the specification, is `Application`: never a secret or its hash), at most `limit` items, with an RFC 8288 `Link: <...>; rel="next"` header while more remain (follow it as is).',
  security: ADMIN,
  parameters: [
    {
      name: 'limit',
      in: 'query',
      description: 'Page size, 1 to 1000.',
      schema: { type: 'integer', minimum: 1, maximum: 1000, default: 100 },
    },
    {
      name: 'after',
      in: 'query',
      description: 'Cursor: the `client_id` after which the page starts (taken from the `Link` header).',
      schema: { type: 'string', maxLength: 64 },
    },
  ],
  responses: {
    '200': {
      description: 'One page of applications.',
      headers: { Link: headerRef('Link') },
      content: jsonContent({ type: 'array', items: schemaRef('Application') }),
    },
    ...ADMIN_ERRORS,
    '400': problemResponse(
      400,
      'Bad Request',
      '`limit` or `after` out of range, or a malformed Authorization header (RFC 6750 `invalid_request`).',
      { limit: 'limit must not be greater than 1000' },
    ),
  },
};

const getApp: OperationObject = {
  operationId: 'getApp',
  summary: 'One application',
  tags: ['Registry'],
  security: ADMIN,
  parameters: [parameterRef('ClientId')],
  responses: {
    '200': { description: 'The application.', content: jsonContent(schemaRef('Application')) },
    '404': notFound('application'),
    ...ADMIN_ERRORS,
  },
};

const deleteApp: OperationObject = {
  operationId: 'deleteApp',
  summary: 'Delete an application',
  tags: ['Registry'],
  description:
    'Deletes the application; every active token of it is refused from this moment (this backend’s sidecar knows before the answer) and its refresh tokens are revoked. An application has two lifecycle states (the specification leaves them "not shown"): registered, then deleted; there is no suspended state. The bootstrap admin app cannot be deleted (**409**), since it is how operators get back in.',
  security: ADMIN,
  parameters: [parameterRef('ClientId')],
  responses: {
    '204': { description: 'Deleted; no body.' },
    '404': notFound('application'),
    '409': problemResponse(409, 'Conflict', 'The bootstrap admin application.', {
      bootstrapAdmin: 'the bootstrap admin application cannot be deleted',
    }),
    ...ADMIN_ERRORS,
  },
};

const rotateSecret: OperationObject = {
  operationId: 'rotateAppSecret',
  summary: 'Rotate an application’s secret',
  tags: ['Registry'],
  description:
    'A new secret, shown once; the old one stops working at once. Deploy the new secret before relying on it. No body. A `spa` app has no secret: **409**.',
  security: ADMIN,
  parameters: [parameterRef('ClientId')],
  responses: {
    '200': { description: 'The new secret.', content: jsonContent(schemaRef('RotatedSecret')) },
    '404': notFound('application'),
    '409': problemResponse(409, 'Conflict', 'A `spa` app.', { spa: 'a spa app has no secret to rotate' }),
    ...ADMIN_ERRORS,
  },
};

const defineScope: OperationObject = {
  operationId: 'defineScope',
  summary: 'Define a custom scope',
  tags: ['Scopes'],
  description:
    'Body and answer are "not shown" in the specification; decided: JSON `{name, description}` -> **201** `{name, description, created_at}`. A standard name or one already defined: **409**; a name that is not lower-case `resource.action` or a description outside 1-500 characters: **400**. Apps may then declare the scope.',
  security: ADMIN,
  requestBody: {
    required: true,
    content: jsonContent(schemaRef('ScopeDefinition'), {
      reportsExport: { value: { name: 'reports.export', description: 'Export reports' } },
    }),
  },
  responses: {
    '201': { description: 'Defined.', content: jsonContent(schemaRef('DefinedScope')) },
    ...adminBodyErrors({
      name: 'name must be resource.action in lower case, for example reports.read',
      description: 'description must be 1 to 500 characters',
    }),
    '409': problemResponse(409, 'Conflict', 'A standard scope, or one already defined.', {
      standard: 'jobs.read is a standard scope',
      existing: 'scope reports.export is already defined',
    }),
  },
};

const listScopes: OperationObject = {
  operationId: 'listScopes',
  summary: 'List scopes (standard and custom)',
  tags: ['Scopes'],
  security: ADMIN,
  responses: {
    '200': {
      description: 'Every scope, with a `standard` flag.',
      content: jsonContent({ type: 'array', items: schemaRef('Scope') }),
    },
    ...ADMIN_ERRORS,
  },
};

const tokenEvents: OperationObject = {
  operationId: 'listTokenEvents',
  summary: 'The token event stream',
  tags: ['Events'],
  description:
    'Issuance, revocation, rotation and registry events, oldest first. Parameters, transport and payload are "not shown" in the specification; decided: plain JSON over HTTP, cursor-paged (poll with `after` = the previous `next_after`), filterable by `client_id`. Each event is written in the same transaction as the change it records.',
  security: ADMIN,
  parameters: [
    {
      name: 'after',
      in: 'query',
      description: 'Return events with an id greater than this (default 0: from the start).',
      schema: { type: 'integer', minimum: 0 },
    },
    {
      name: 'limit',
      in: 'query',
      description: 'Page size, 1 to 1000.',
      schema: { type: 'integer', minimum: 1, maximum: 1000, default: 100 },
    },
    {
      name: 'client_id',
      in: 'query',
      description: 'Only events of this app.',
      schema: { type: 'string', maxLength: 64 },
    },
  ],
  responses: {
    '200': { description: 'One page of events.', content: jsonContent(schemaRef('TokenEventPage')) },
    ...ADMIN_ERRORS,
    '400': problemResponse(
      400,
      'Bad Request',
      'A parameter out of range, or a malformed Authorization header (RFC 6750 `invalid_request`).',
      { limit: 'limit must not be less than 1' },
    ),
  },
};

const rotateKeys: OperationObject = {
  operationId: 'rotateSigningKey',
  summary: 'Rotate the signing key',
  tags: ['Keys and discovery'],
  description:
    'A new RS256 key (2048 bits) signs from now on; the previous one stays in `/v1/jwks` (and is accepted) for one token lifetime plus a minute. Sidecars re-read the key set every 30 s and at once on an unknown `kid`. No body.',
  security: ADMIN,
  responses: {
    '201': { description: 'The new key.', content: jsonContent(schemaRef('RotatedSigningKey')) },
    ...ADMIN_ERRORS,
  },
};

const registerServiceAccount: OperationObject = {
  operationId: 'registerServiceAccount',
  summary: 'Register a service account',
  tags: ['Service accounts'],
  description:
    'The specification names only the body field `name`; decided: JSON `{name, declared_scopes?}` -> **201** `{client_id, client_secret, name, declared_scopes, app_type: "service", created_at}` with a generated `client_id` and the secret shown once. Admin Bearer token required.',
  security: ADMIN,
  requestBody: {
    required: true,
    content: jsonContent(schemaRef('ServiceAccountRegistration'), {
      worker: { value: { name: 'Nightly export', declared_scopes: ['jobs.read'] } },
    }),
  },
  responses: {
    '201': {
      description: 'Registered.',
      headers: { 'Cache-Control': headerRef('CacheControlNoStore') },
      content: jsonContent(schemaRef('ServiceAccount')),
    },
    ...adminBodyErrors({ name: 'name must be 1 to 200 characters' }),
  },
};

const rotateServiceCredentials: OperationObject = {
  operationId: 'rotateServiceAccountCredentials',
  summary: 'Rotate a service account’s secret',
  tags: ['Service accounts'],
  description:
    'The response body is "not shown" in the specification; decided: the same as `rotate-secret`, **200** `{client_id, client_secret, rotated_at}`; the old secret stops working at once. No body. Admin Bearer token required.',
  security: ADMIN,
  parameters: [
    {
      name: 'app_id',
      in: 'path',
      required: true,
      description: 'The `client_id`.',
      schema: { type: 'string' },
    },
  ],
  responses: {
    '200': {
      description: 'The new secret.',
      headers: { 'Cache-Control': headerRef('CacheControlNoStore') },
      content: jsonContent(schemaRef('RotatedSecret')),
    },
    '404': notFound('application'),
    '409': problemResponse(409, 'Conflict', 'An app without a secret.', {
      spa: 'a spa app has no secret to rotate',
    }),
    ...ADMIN_ERRORS,
  },
};

/** Routes guarded by `@RequirePermission`: the policy engine decides per tenant. */
const PERMISSION_ERRORS: Responses = {
  '400': responseRef('BearerInvalidRequest'),
  '401': responseRef('BearerUnauthorized'),
  '403': responseRef('PermissionDenied'),
  '500': responseRef('ServerError'),
  '503': responseRef('Unavailable'),
};

const userNotFound = problemResponse(
  404,
  'Not Found',
  'No such user in this tenant (also when the user is in another one).',
  {
    notFound: 'user user-7 not found',
  },
);

const listUsers: OperationObject = {
  operationId: 'listTenantUsers',
  summary: 'List the users of a tenant',
  tags: ['Tenant users'],
  description:
    'Permission `users.read` on `{tenant}`: a user token needs the scope and a role policy allowing it on that tenant (only `global_admin` crosses tenants); a service token needs a scope covering `users.read` (`admin.*` covers every action).',
  security: [{ bearerAuth: [] }],
  parameters: [parameterRef('Tenant')],
  responses: {
    '200': { description: 'The users.', content: jsonContent({ type: 'array', items: schemaRef('User') }) },
    ...PERMISSION_ERRORS,
  },
};

const getUser: OperationObject = {
  operationId: 'getTenantUser',
  summary: 'One user of a tenant',
  tags: ['Tenant users'],
  description: 'Permission `users.read` on `{tenant}`.',
  security: [{ bearerAuth: [] }],
  parameters: [parameterRef('Tenant'), parameterRef('UserId')],
  responses: {
    '200': { description: 'The user.', content: jsonContent(schemaRef('User')) },
    '404': userNotFound,
    ...PERMISSION_ERRORS,
  },
};

const setRoles: OperationObject = {
  operationId: 'setTenantUserRoles',
  summary: 'Set a user’s roles',
  tags: ['Tenant users'],
  description:
    'Permission `users.write` on `{tenant}`. Replaces the roles (at least one, names of the role bundle); they take effect in the user’s tokens at the next refresh. Only a `global_admin` may grant or remove `global_admin` (**403**); an unknown role is **400**.',
  security: [{ bearerAuth: [] }],
  parameters: [parameterRef('Tenant'), parameterRef('UserId')],
  requestBody: {
    required: true,
    content: jsonContent(schemaRef('RolesUpdate'), { viewer: { value: { roles: ['viewer'] } } }),
  },
  responses: {
    '200': { description: 'The updated user.', content: jsonContent(schemaRef('User')) },
    '404': userNotFound,
    ...PERMISSION_ERRORS,
    '400': problemResponse(
      400,
      'Bad Request',
      'An unknown role, or a malformed body or Authorization header.',
      {
        unknownRole: 'unknown roles: owner (the bundle is global_admin, tenant_admin, user, viewer)',
        empty: 'roles must name at least one role',
      },
    ),
    '413': responseRef('PayloadTooLarge'),
    '415': responseRef('UnsupportedMediaType'),
  },
};

export const registryPaths: Paths = {
  '/v1/oauth/apps': { post: register, get: list },
  '/v1/oauth/apps/{id}': { get: getApp, delete: deleteApp },
  '/v1/oauth/apps/{id}/rotate-secret': { post: rotateSecret },
  '/api/v1/scopes': { post: defineScope, get: listScopes },
  '/api/v1/token-events': { get: tokenEvents },
  '/api/v1/keys/rotate': { post: rotateKeys },
  '/api/v1/apps/register': { post: registerServiceAccount },
  '/api/v1/apps/{app_id}/credentials/rotate': { post: rotateServiceCredentials },
  '/api/v1/tenants/{tenant}/users': { get: listUsers },
  '/api/v1/tenants/{tenant}/users/{id}': { get: getUser },
  '/api/v1/tenants/{tenant}/users/{id}/roles': { put: setRoles },
};
