import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, type ApiPropertyOptions, ApiSchema } from '@nestjs/swagger';
import {
  APP_TYPES,
  type AppType,
  CLIENT_JWKS_MAX_BYTES,
  CLIENT_JWKS_MAX_KEYS,
  TOKEN_ENDPOINT_AUTH_METHODS,
  EXCHANGE_AUDIENCES_MAX,
  RESOURCE_URI_MAX_LENGTH,
  STANDARD_SCOPES,
  TOKEN_EVENT_TYPES,
  type TokenEventType,
  WEBHOOK_URL_MAX_LENGTH,
} from '@platform/domain';
import { IsArray, IsBoolean, IsObject, IsOptional, IsString, MaxLength } from 'class-validator';
import { ClientIdProperty, ScopeNamesProperty, TimestampProperty } from './fields';
import { operation } from './operation-table';
import { CursorPageQueryDto, LIVE_STREAM_END, PageQueryDto } from './paging';

/** Validation checks shapes only; the registry decides what is a valid client_id, scope or redirect URI. */

const APP_TYPE = {
  enum: APP_TYPES,
  enumName: 'AppType',
  description:
    '`service`: client_credentials; `web`: authorization_code + refresh_token; `spa`: authorization_code + PKCE, no secret; `cli`: authorization_code + PKCE.',
};

@ApiSchema({ name: 'ApplicationRegistration' })
export class RegisterApplicationDto {
  @ClientIdProperty()
  @IsString()
  @MaxLength(64)
  client_id: string;

  @ApiProperty({ minLength: 1, maxLength: 200 })
  @IsString()
  @MaxLength(200)
  name: string;

  @ScopeNamesProperty({
    minItems: 1,
    description:
      'Standard scopes, custom ones (`POST /api/v1/scopes`) or names covered by a defined wildcard; anything else is refused (400).',
  })
  @IsArray()
  @IsString({ each: true })
  @MaxLength(128, { each: true })
  declared_scopes: string[];

  @ApiProperty(APP_TYPE)
  @IsString()
  app_type: string;

  @ApiPropertyOptional({
    type: 'string',
    isArray: true,
    format: 'uri',
    maxLength: 2000,
    description:
      'Required for `web`, `spa`, `cli`, refused for `service`. `https`, `http` on loopback hosts only (RFC 8252 7.3), or a private-use reverse-domain scheme (7.1); never a fragment. Matched exactly.',
  })
  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  @MaxLength(2000, { each: true })
  redirect_uris?: string[];

  @TenantBindingProperty()
  @IsOptional()
  @IsString()
  @MaxLength(64)
  tenant?: string;

  @ResourceUriProperty({ also: 'Omitted or null: none.' })
  @IsOptional()
  @IsString()
  @MaxLength(RESOURCE_URI_MAX_LENGTH)
  resource_uri?: string | null;

  @ExchangeAudiencesProperty({ also: 'Omitted: none.' })
  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  @MaxLength(RESOURCE_URI_MAX_LENGTH, { each: true })
  token_exchange_audiences?: string[];

  @ImpersonationAllowedInput({ also: 'Omitted: false.' })
  impersonation_allowed?: boolean;

  @DpopBoundAccessTokensInput({ also: 'Omitted: false.' })
  dpop_bound_access_tokens?: boolean;

  @PostLogoutRedirectUrisInput({ also: 'Omitted: none.' })
  post_logout_redirect_uris?: string[];

  @BackchannelLogoutUriInput({ also: 'Omitted or null: none.' })
  backchannel_logout_uri?: string | null;

  @ApiPropertyOptional({
    enum: TOKEN_ENDPOINT_AUTH_METHODS,
    description:
      'RFC 7591: how the app authenticates (docs/workload-identity.md). Omitted: with a secret (`client_secret_basic` or `client_secret_post`, both accepted), `none` for `spa`. `private_key_jwt` (not for `spa`): with assertions signed by a key of `jwks` or `jwks_uri` (exactly one); such an app gets no `client_secret`.',
  })
  @IsOptional()
  @IsString()
  @MaxLength(32)
  token_endpoint_auth_method?: string;

  @ClientJwksInput({ also: 'Omitted or null: none.' })
  jwks?: object | null;

  @ClientJwksUriInput({ also: 'Omitted or null: none.' })
  jwks_uri?: string | null;
}

@ApiSchema({
  name: 'ApplicationUpdate',
  description:
    'The app’s part in token exchange (docs/tokens.md) and in OpenID Connect logout (docs/openid-connect.md): the members sent change, the others stay; at least one (**400** otherwise).',
})
export class UpdateApplicationDto {
  @ResourceUriProperty({ also: '`null`: the app is no longer a resource.' })
  @IsOptional()
  @IsString()
  @MaxLength(RESOURCE_URI_MAX_LENGTH)
  resource_uri?: string | null;

  @ExchangeAudiencesProperty({ also: 'Replaces the list.' })
  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  @MaxLength(RESOURCE_URI_MAX_LENGTH, { each: true })
  token_exchange_audiences?: string[];

  @ImpersonationAllowedInput()
  impersonation_allowed?: boolean;

  @DpopBoundAccessTokensInput()
  dpop_bound_access_tokens?: boolean;

  @PostLogoutRedirectUrisInput({ also: 'Replaces the list; `[]`: none.' })
  post_logout_redirect_uris?: string[];

  @BackchannelLogoutUriInput({ also: '`null`: no more back-channel logout.' })
  backchannel_logout_uri?: string | null;

  @ClientJwksInput({ also: 'A private_key_jwt app only: its new keys (a rotation); clears `jwks_uri`.' })
  jwks?: object;

  @ClientJwksUriInput({ also: 'A private_key_jwt app only: where its keys are now; clears `jwks`.' })
  jwks_uri?: string;
}

@ApiSchema({
  name: 'Application',
  description:
    'An application as the registry shows it: never a secret or its hash. This is also the item of the app listing (the specification leaves it "not shown").',
})
export class ApplicationDto {
  @ClientIdProperty() client_id: string;
  @ApiProperty() name: string;
  @ScopeNamesProperty() declared_scopes: string[];
  @ApiProperty(APP_TYPE) app_type: AppType;
  @ApiProperty({ type: 'string', isArray: true, format: 'uri' }) redirect_uris: string[];
  @TimestampProperty() created_at: string;
  @TimestampProperty({ nullable: true, description: 'Last secret rotation, or null.' }) rotated_at:
    string | null;
  @ApiPropertyOptional({
    description: 'The tenant a service app is bound to, when it is (SCIM provisioning).',
  })
  tenant?: string;
  @ResourceUriProperty({ required: true, also: 'null: none.' }) resource_uri: string | null;
  @ExchangeAudiencesProperty({ required: true }) token_exchange_audiences: string[];
  @ImpersonationAllowedProperty({ required: true }) impersonation_allowed: boolean;
  @DpopBoundAccessTokensProperty({ required: true }) dpop_bound_access_tokens: boolean;
  @PostLogoutRedirectUrisProperty({ required: true }) post_logout_redirect_uris: string[];
  @BackchannelLogoutUriProperty({ required: true, also: 'null: none.' }) backchannel_logout_uri:
    string | null;
  @ApiProperty({
    enum: TOKEN_ENDPOINT_AUTH_METHODS,
    description:
      'How the app authenticates (RFC 7591); for apps registered without it, by whether it holds a secret.',
  })
  token_endpoint_auth_method: string;
  @ClientJwksProperty({ required: true, also: 'null: none.' }) jwks: object | null;
  @ClientJwksUriProperty({ required: true, also: 'null: none.' }) jwks_uri: string | null;
}

@ApiSchema({
  name: 'RegisteredApplication',
  description: 'The new application, with its secret: shown this once (absent for `spa`, which has none).',
})
export class RegisteredApplicationDto extends ApplicationDto {
  @ApiPropertyOptional({
    description: '256 random bits, base64url (43 characters). Stored only as an argon2id hash.',
  })
  client_secret?: string;
}

@ApiSchema({
  name: 'RotatedSecret',
  description: 'The new secret, shown once; the old one stopped working at this moment.',
})
export class RotatedSecretDto {
  @ApiProperty() client_id: string;
  @ApiProperty() client_secret: string;
  @TimestampProperty() rotated_at: string;
}

export class ListApplicationsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ description: 'Cursor: the last `client_id` of the previous page.' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  after?: string;
}

@ApiSchema({
  name: 'ScopeDefinition',
  description: 'A custom scope (the specification leaves the body "not shown").',
})
export class DefineScopeDto {
  @ApiProperty({
    maxLength: 128,
    description: '`resource.action` in lower case; not a standard scope, not already defined.',
    example: 'reports.export',
  })
  @IsString()
  @MaxLength(128)
  name: string;

  @ApiProperty({ minLength: 1, maxLength: 500, example: 'Export reports' })
  @IsString()
  @MaxLength(500)
  description: string;
}

@ApiSchema({ name: 'DefinedScope' })
export class DefinedScopeDto {
  @ApiProperty() name: string;
  @ApiProperty() description: string;
  @TimestampProperty() created_at: string;
}

@ApiSchema({
  name: 'Scope',
  description: `A scope of the listing: standard (\`standard: true\`, \`created_at: null\`) or custom. The standard scopes: ${STANDARD_SCOPES.map((scope) => `\`${scope.name}\` (${scope.description})`).join(', ')}.`,
})
export class ScopeDto {
  @ApiProperty() name: string;
  @ApiProperty() description: string;
  @ApiProperty() standard: boolean;
  @TimestampProperty({ nullable: true }) created_at: string | null;
}

@ApiSchema({ name: 'TokenEvent' })
export class TokenEventDto {
  @ApiProperty({ type: 'integer', description: 'Increasing cursor.' }) id: number;
  @ApiProperty({ enum: TOKEN_EVENT_TYPES }) type: TokenEventType;
  @ApiProperty() client_id: string;
  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'The user or, for service tokens, the client.',
  })
  subject: string | null;
  @ApiProperty({ type: 'string', nullable: true }) jti: string | null;
  @ApiProperty({ type: 'string', nullable: true }) grant_id: string | null;
  @TimestampProperty() occurred_at: string;
}

@ApiSchema({
  name: 'TokenEventPage',
  description: 'One page of the stream, oldest first. Pass `next_after` back as `after` to continue.',
})
export class TokenEventPageDto {
  @ApiProperty({ type: () => TokenEventDto, isArray: true }) events: TokenEventDto[];
  @ApiProperty({
    type: 'integer',
    description: 'The id of the last event of the page (or the `after` given when the page is empty).',
  })
  next_after: number;
}

export class ListTokenEventsQueryDto extends CursorPageQueryDto {
  @ApiPropertyOptional({ description: 'Only the events of this application.' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  client_id?: string;
}

@ApiSchema({ name: 'ServiceAccountRegistration' })
export class RegisterServiceAccountDto {
  @ApiProperty({ minLength: 1, maxLength: 200 })
  @IsString()
  @MaxLength(200)
  name: string;

  @ScopeNamesProperty({
    required: false,
    description: 'Optional; the same rules as at `POST /v1/oauth/apps`.',
  })
  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  @MaxLength(128, { each: true })
  declared_scopes?: string[];

  @TenantBindingProperty()
  @IsOptional()
  @IsString()
  @MaxLength(64)
  tenant?: string;
}

@ApiSchema({
  name: 'ServiceAccount',
  description: 'A `service` app with a generated `client_id`; the secret is shown this once.',
})
export class ServiceAccountDto {
  @ClientIdProperty() client_id: string;
  @ApiProperty() client_secret: string;
  @ApiProperty() name: string;
  @ScopeNamesProperty() declared_scopes: string[];
  @ApiProperty({ enum: ['service'] }) app_type: 'service';
  @TimestampProperty() created_at: string;
  @ApiPropertyOptional({ description: 'The tenant the account is bound to, when it is.' }) tenant?: string;
}

const ADMIN = { kind: 'admin' } as const;
const NO_APP = 'No application with this id.';
const APP_ID = { id: { description: 'The application’s `client_id`.' } };

/**
 * Application management (admin Bearer token). The registry lives in the control plane, which
 * checks the admin token again itself under `api/v1/apps`; the edge translates its addresses into
 * the public ones.
 */
export const APP_OPERATIONS = {
  register: operation({
    id: 'registerApp',
    tag: 'Registry',
    summary: 'Register an application',
    description:
      'Registers an OAuth client. The body is the specification’s fields plus optional `redirect_uris` (required for `web`, `spa` and `cli`), `post_logout_redirect_uris` and `backchannel_logout_uri`. The answer is the application record with `client_secret`, shown this once (no secret for `spa`). Duplicate `client_id`: **409**; a rule broken (client_id syntax, name length, no or undefined declared scope, app type, redirect URIs, logout URIs): **400**. Missing admin token: **401**; a token without `admin.*` or `global_admin`: **403**.',
    method: 'POST',
    path: 'v1/oauth/apps',
    internal: 'api/v1/apps',
    caller: ADMIN,
    body: { type: 'json', model: RegisterApplicationDto },
    answer: { status: 201, model: RegisteredApplicationDto, description: 'Registered.' },
    refuses: { 409: 'The `client_id` is taken, or another application is the `resource_uri`.' },
  }),
  list: operation({
    id: 'listApps',
    tag: 'Registry',
    summary: 'List applications',
    description:
      'A JSON array of applications ordered by `client_id` (the item shape, "not shown" in the specification, is `Application`: never a secret or its hash), at most `limit` items, with an RFC 8288 `Link: <...>; rel="next"` header while more remain (follow it as is).',
    method: 'GET',
    path: 'v1/oauth/apps',
    internal: 'api/v1/apps',
    caller: ADMIN,
    query: ListApplicationsQueryDto,
    answer: {
      status: 200,
      model: [ApplicationDto],
      description: 'One page of applications.',
      headers: {
        Link: { description: 'RFC 8288 `rel="next"` while more items remain.', schema: { type: 'string' } },
      },
    },
  }),
  get: operation({
    id: 'getApp',
    tag: 'Registry',
    summary: 'One application',
    method: 'GET',
    path: 'v1/oauth/apps/:id',
    internal: 'api/v1/apps/:id',
    caller: ADMIN,
    params: APP_ID,
    answer: { status: 200, model: ApplicationDto, description: 'The application.' },
    refuses: { 404: NO_APP },
  }),
  update: operation({
    id: 'updateApp',
    tag: 'Registry',
    summary: 'Change an application’s part in token exchange and logout',
    description:
      'Changes the members sent of `resource_uri`, `token_exchange_audiences`, `impersonation_allowed`, `post_logout_redirect_uris`, `backchannel_logout_uri`, `dpop_bound_access_tokens`, and a private_key_jwt app’s `jwks` or `jwks_uri` (a key rotation, docs/workload-identity.md) (at least one; a body naming none is **400**), for the requests that come after. A `resource_uri` another application is: **409**; a logout URI breaking its rules, or one given to a `service` app, keys for an app that is not private_key_jwt or breaking the registration’s rules: **400**. Audited (`app.updated`, with the values set).',
    method: 'PATCH',
    path: 'v1/oauth/apps/:id',
    internal: 'api/v1/apps/:id',
    caller: ADMIN,
    params: APP_ID,
    body: { type: 'json', model: UpdateApplicationDto },
    answer: { status: 200, model: ApplicationDto, description: 'The application as changed.' },
    refuses: { 404: NO_APP, 409: 'Another application is the `resource_uri`.' },
  }),
  delete: operation({
    id: 'deleteApp',
    tag: 'Registry',
    summary: 'Delete an application',
    description:
      'Deletes the application; every active token of it is refused from this moment (this backend’s sidecar knows before the answer) and its refresh tokens are revoked. An application has two lifecycle states (the specification leaves them "not shown"): registered, then deleted; there is no suspended state. The bootstrap admin app cannot be deleted (**409**), since it is how operators get back in.',
    method: 'DELETE',
    path: 'v1/oauth/apps/:id',
    internal: 'api/v1/apps/:id',
    caller: ADMIN,
    params: APP_ID,
    answer: { status: 204, description: 'Deleted; no body.' },
    refuses: { 404: NO_APP, 409: 'The bootstrap admin application.' },
  }),
  rotateSecret: operation({
    id: 'rotateAppSecret',
    tag: 'Registry',
    summary: 'Rotate an application’s secret',
    description:
      'A new secret, shown once; the old one stops working at once (at every backend within a second: a backend that answers introspection itself forgets the old secret when its sidecar streams the rotation, this one before the answer). Deploy the new secret before relying on it. No body. A `spa` app has no secret: **409**.',
    method: 'POST',
    path: 'v1/oauth/apps/:id/rotate-secret',
    internal: 'api/v1/apps/:id/rotate-secret',
    caller: ADMIN,
    params: APP_ID,
    answer: { status: 200, model: RotatedSecretDto, description: 'The new secret.' },
    refuses: { 404: NO_APP, 409: 'A `spa` app.' },
  }),
};

/** Custom scope definitions (admin Bearer token), same paths at the edge and the control plane. */
export const SCOPE_OPERATIONS = {
  define: operation({
    id: 'defineScope',
    tag: 'Scopes',
    summary: 'Define a custom scope',
    description:
      'Body and answer are "not shown" in the specification; decided: JSON `{name, description}` -> **201** `{name, description, created_at}`. A standard name or one already defined: **409**; a name that is not lower-case `resource.action` or a description outside 1-500 characters: **400**. Apps may then declare the scope.',
    method: 'POST',
    path: 'api/v1/scopes',
    caller: ADMIN,
    body: { type: 'json', model: DefineScopeDto },
    answer: { status: 201, model: DefinedScopeDto, description: 'Defined.' },
    refuses: { 409: 'A standard scope, or one already defined.' },
  }),
  list: operation({
    id: 'listScopes',
    tag: 'Scopes',
    summary: 'List scopes (standard and custom)',
    method: 'GET',
    path: 'api/v1/scopes',
    caller: ADMIN,
    answer: { status: 200, model: [ScopeDto], description: 'Every scope, with a `standard` flag.' },
  }),
};

/**
 * The token event stream (admin Bearer token), same path at the edge and the control plane:
 * cursor-paged, or live with `Accept: text/event-stream`.
 */
export const TOKEN_EVENT_OPERATIONS = {
  list: operation({
    id: 'listTokenEvents',
    tag: 'Events',
    summary: 'The token event stream',
    description:
      'Issuance, revocation, rotation and registry events, oldest first. Parameters, transport and payload are "not shown" in the specification; decided: plain JSON over HTTP, cursor-paged (poll with `after` = the previous `next_after`), filterable by `client_id`; or live, with `Accept: text/event-stream`: Server-Sent Events (`event: token_event`, `id` = the event id, `data` = the event) from `after`, every stored event and then each new one, resumed after `Last-Event-ID` on reconnection, with a comment heartbeat every 15 s. Each event is written in the same transaction as the change it records. ' +
      LIVE_STREAM_END,
    method: 'GET',
    path: 'api/v1/token-events',
    caller: ADMIN,
    query: ListTokenEventsQueryDto,
    answer: { status: 200, model: TokenEventPageDto, description: 'One page of events.' },
    live: true,
  }),
};

/**
 * Service accounts (admin Bearer token): headless credentials that act as their app. The
 * control plane checks the admin token again, names the account and shows its secret once.
 */
export const SERVICE_ACCOUNT_OPERATIONS = {
  register: operation({
    id: 'registerServiceAccount',
    tag: 'Service accounts',
    summary: 'Register a service account',
    description:
      'The specification names only the body field `name`; decided: JSON `{name, declared_scopes?}` -> **201** `{client_id, client_secret, name, declared_scopes, app_type: "service", created_at}` with a generated `client_id` and the secret shown once. Admin Bearer token required.',
    method: 'POST',
    path: 'api/v1/apps/register',
    caller: ADMIN,
    body: { type: 'json', model: RegisterServiceAccountDto },
    answer: { status: 201, model: ServiceAccountDto, description: 'Registered.' },
  }),
  rotate: operation({
    id: 'rotateServiceAccountCredentials',
    tag: 'Service accounts',
    summary: 'Rotate a service account’s secret',
    description:
      'The response body is "not shown" in the specification; decided: the same as `rotate-secret`, **200** `{client_id, client_secret, rotated_at}`; the old secret stops working at once. No body. Admin Bearer token required.',
    method: 'POST',
    path: 'api/v1/apps/:app_id/credentials/rotate',
    // The control plane rotates any app's secret on one route.
    internal: 'api/v1/apps/:app_id/rotate-secret',
    caller: ADMIN,
    params: { app_id: { description: 'The `client_id`.' } },
    answer: { status: 200, model: RotatedSecretDto, description: 'The new secret.' },
    refuses: { 404: NO_APP, 409: 'An app without a secret.' },
  }),
};

/** Where a member's documentation differs between the shapes: `also` follows the common text. */
type MemberOptions = ApiPropertyOptions & { also?: string };

/** The app as a resource server (docs/tokens.md, "Resources and exchange rights of an app"). */
function ResourceUriProperty({ also, ...options }: MemberOptions = {}) {
  return ApiProperty({
    required: false,
    type: 'string',
    nullable: true,
    maxLength: RESOURCE_URI_MAX_LENGTH,
    description:
      `The app as a resource server (RFC 8707): the \`aud\` of the tokens issued for it, named by a token request's \`resource\` or a token exchange's \`audience\`. An absolute \`https\` URL with a host or a \`urn:\` name, no fragment, at most ${RESOURCE_URI_MAX_LENGTH} characters, unique across applications; matched exactly. ${also ?? ''}`.trim(),
    example: 'https://api.reports.example',
    ...options,
  } as ApiPropertyOptions);
}

function ExchangeAudiencesProperty({ also, ...options }: MemberOptions = {}) {
  return ApiProperty({
    required: false,
    type: 'string',
    isArray: true,
    maxItems: EXCHANGE_AUDIENCES_MAX,
    uniqueItems: true,
    description:
      `The resource URIs this client may ask a token exchange for (RFC 8693); empty: it may not exchange. At most ${EXCHANGE_AUDIENCES_MAX}, each written as a \`resource_uri\`, none twice. ${also ?? ''}`.trim(),
    example: ['https://api.ledger.example'],
    ...options,
  } as ApiPropertyOptions);
}

function ImpersonationAllowedProperty({ also, ...options }: MemberOptions = {}) {
  return ApiProperty({
    required: false,
    type: 'boolean',
    description:
      `Whether this client may ask for impersonation tokens (its user still needs the permission \`users.impersonate\`, and the tenant's impersonation policy applies). ${also ?? ''}`.trim(),
    example: false,
    ...options,
  } as ApiPropertyOptions);
}

/** RFC 9449 section 5.2: the app's token requests must carry a DPoP proof (docs/tokens.md, "DPoP"). */
function DpopBoundAccessTokensProperty({ also, ...options }: MemberOptions = {}) {
  return ApiProperty({
    required: false,
    type: 'boolean',
    description:
      `Whether every token request of this client must carry a DPoP proof (RFC 9449 section 5.2): without one it is refused (\`invalid_dpop_proof\`), and its access tokens are always bound to its key. A proof is accepted from any client either way. ${also ?? ''}`.trim(),
    example: false,
    ...options,
  } as ApiPropertyOptions);
}

/** Where RP-initiated logout may send the browser back (docs/openid-connect.md). */
function PostLogoutRedirectUrisProperty({ also, ...options }: MemberOptions = {}) {
  return ApiProperty({
    required: false,
    type: 'string',
    isArray: true,
    format: 'uri',
    maxLength: 2000,
    description:
      `OpenID Connect RP-Initiated Logout 1.0: where \`/oauth/logout\` may send the browser after signing out, named by the request's \`post_logout_redirect_uri\` and matched exactly. The rules of \`redirect_uris\`; \`web\`, \`spa\` and \`cli\` apps only. ${also ?? ''}`.trim(),
    example: ['https://reports.example/signed-out'],
    ...options,
  } as ApiPropertyOptions);
}

/** Where logout tokens go (docs/openid-connect.md). */
function BackchannelLogoutUriProperty({ also, ...options }: MemberOptions = {}) {
  return ApiProperty({
    required: false,
    type: 'string',
    nullable: true,
    format: 'uri',
    maxLength: WEBHOOK_URL_MAX_LENGTH,
    description:
      `OpenID Connect Back-Channel Logout 1.0: where a logout token is posted when a session the app holds a grant of ends (delivered and retried as webhooks are). The rules of a webhook URL: \`https\` to a public address (\`http\` and local addresses only where webhooks allow them, outside production); \`web\`, \`spa\` and \`cli\` apps only. ${also ?? ''}`.trim(),
    example: 'https://reports.example/backchannel-logout',
    ...options,
  } as ApiPropertyOptions);
}

/** private_key_jwt: the app's public keys inline (RFC 7591 `jwks`). */
function ClientJwksProperty({ also, ...options }: MemberOptions = {}) {
  return ApiProperty({
    required: false,
    type: 'object',
    nullable: true,
    additionalProperties: true,
    description:
      `private_key_jwt: a JWK set of 1 to ${CLIENT_JWKS_MAX_KEYS} public RSA or EC keys (a private key is refused), at most ${CLIENT_JWKS_MAX_BYTES} bytes. ${also ?? ''}`.trim(),
    example: { keys: [{ kty: 'EC', crv: 'P-256', kid: 'k1', x: '…', y: '…' }] },
    ...options,
  } as ApiPropertyOptions);
}

/** private_key_jwt: where the app publishes its public keys (RFC 7591 `jwks_uri`). */
function ClientJwksUriProperty({ also, ...options }: MemberOptions = {}) {
  return ApiProperty({
    required: false,
    type: 'string',
    nullable: true,
    format: 'uri',
    maxLength: WEBHOOK_URL_MAX_LENGTH,
    description:
      `private_key_jwt: where the app's JWK set is fetched (cached, fetched again on an unknown \`kid\` at most every 30 s), under the webhooks' address rules (\`https\` to a public address in production). ${also ?? ''}`.trim(),
    example: 'https://worker.example/.well-known/jwks.json',
    ...options,
  } as ApiPropertyOptions);
}

/**
 * A member a client sends at registration and update: its documentation and its validation,
 * together (the answer's member takes the documentation alone).
 */
function ImpersonationAllowedInput(options: MemberOptions = {}) {
  return applyDecorators(ImpersonationAllowedProperty(options), IsOptional(), IsBoolean());
}

function DpopBoundAccessTokensInput(options: MemberOptions = {}) {
  return applyDecorators(DpopBoundAccessTokensProperty(options), IsOptional(), IsBoolean());
}

function PostLogoutRedirectUrisInput(options: MemberOptions = {}) {
  return applyDecorators(
    PostLogoutRedirectUrisProperty(options),
    IsOptional(),
    IsArray(),
    IsString({ each: true }),
    MaxLength(2000, { each: true }),
  );
}

function BackchannelLogoutUriInput(options: MemberOptions = {}) {
  return applyDecorators(
    BackchannelLogoutUriProperty(options),
    IsOptional(),
    IsString(),
    MaxLength(WEBHOOK_URL_MAX_LENGTH),
  );
}

function ClientJwksInput(options: MemberOptions = {}) {
  return applyDecorators(ClientJwksProperty(options), IsOptional(), IsObject());
}

function ClientJwksUriInput(options: MemberOptions = {}) {
  return applyDecorators(
    ClientJwksUriProperty(options),
    IsOptional(),
    IsString(),
    MaxLength(WEBHOOK_URL_MAX_LENGTH),
  );
}

/** A service app's binding to the tenant it provisions (docs/scim.md). */
function TenantBindingProperty() {
  return ApiPropertyOptional({
    maxLength: 64,
    pattern: '^[A-Za-z0-9._-]{1,64}$',
    description:
      'A `service` app only: the tenant it acts in where an API is per tenant. Its SCIM provisioning (`scim.read`, `scim.write`) reaches this tenant and no other; without it, the default tenant.',
  });
}
