import { applyDecorators, type Type } from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiCookieAuth,
  ApiExtraModels,
  ApiOperation,
  ApiProduces,
  ApiResponse,
  ApiSecurity,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import { BROWSER_SESSION, CLIENT_AUTHENTICATION, DeclaresAuthority, NO_CREDENTIAL } from './authority';
import { BearerProblemDto, OAuthErrorDto, PermissionProblemDto, ProblemDto } from './errors';

/**
 * How each kind of public route answers, as composite OpenAPI decorators: the refusals every
 * route of a kind shares (a guard's, the exception filter's) are part of the contract, so a
 * controller states only what is its own. The kinds without a guard (public, OAuth client,
 * browser) also declare their authority (`x-authority`, ./authority.ts); a guarded route
 * declares it with the decorator that applies its guard (the backend's `RequirePermission`,
 * `RequireAdmin`, `RequireToken`).
 */

export const FORM = 'application/x-www-form-urlencoded';
const JSON_TYPE = 'application/json';
const PROBLEM = 'application/problem+json';
const HTML = 'text/html';

export type Tag =
  | 'OAuth'
  | 'Keys and discovery'
  | 'Registry'
  | 'Scopes'
  | 'Events'
  | 'Audit'
  | 'Webhooks'
  | 'Service accounts'
  | 'Tenant users'
  | 'SCIM'
  | 'Rate limits'
  | 'Feature flags'
  | 'Plans and quotas'
  | 'Masking'
  | 'Secrets'
  | 'Workload identity'
  | 'SAML sign-in'
  | 'Jobs'
  | 'User login and consent'
  | 'App login family'
  | 'Platform'
  | 'Internal';

interface Doc {
  id: string;
  tag: Tag;
  summary: string;
  description?: string;
}

const operation = ({ id, tag, summary, description }: Doc) =>
  applyDecorators(ApiOperation({ operationId: id, summary, description }), ApiTags(tag));

const ref = (model: Type<unknown>) => ({ $ref: getSchemaPath(model) });

/** An answer or body that names models by reference registers them, so the document defines them. */
const referencing = (models: Type<unknown>[], decorator: MethodDecorator) =>
  applyDecorators(ApiExtraModels(...models), decorator);

const NO_STORE_HEADERS = {
  'Cache-Control': { schema: { type: 'string', enum: ['no-store'] } },
  Pragma: { schema: { type: 'string', enum: ['no-cache'] } },
};

const BEARER_CHALLENGE = {
  'WWW-Authenticate': {
    description:
      'RFC 6750 challenge: `Bearer realm="oauth"` when no token was sent; otherwise with `error`, `error_description` and, for `insufficient_scope`, `scope`.',
    schema: { type: 'string' },
  },
};

type Examples = Record<string, { summary?: string; value: unknown }>;

/** A JSON answer of `model`. */
export const Answers = (
  status: number,
  model: Type<unknown> | [Type<unknown>],
  description: string,
  extra: { headers?: Record<string, unknown>; examples?: Examples; oneOf?: Type<unknown>[] } = {},
) => {
  const item = Array.isArray(model) ? model[0] : model;
  const schema = extra.oneOf
    ? { oneOf: extra.oneOf.map(ref) }
    : Array.isArray(model)
      ? { type: 'array', items: ref(item) }
      : ref(item);
  return referencing(
    extra.oneOf ?? [item],
    ApiResponse({
      status,
      description,
      headers: extra.headers as never,
      content: { [JSON_TYPE]: { schema, ...(extra.examples ? { examples: extra.examples } : {}) } },
    }),
  );
};

/** An RFC 9457 problem answer. */
export const Refuses = (status: number, description: string, model: Type<unknown> = ProblemDto) =>
  referencing([model], ApiResponse({ status, description, content: { [PROBLEM]: { schema: ref(model) } } }));

/** An RFC 6749 section 5.2 answer; `conditions` maps an example name to [error, error_description]. */
export const OAuthRefusal = (
  status: number,
  description: string,
  conditions: Record<string, [string, string]> = {},
  headers: Record<string, unknown> = {},
) =>
  referencing(
    [OAuthErrorDto],
    ApiResponse({
      status,
      description,
      headers: { ...NO_STORE_HEADERS, ...headers } as never,
      content: {
        [JSON_TYPE]: {
          schema: ref(OAuthErrorDto),
          examples: Object.fromEntries(
            Object.entries(conditions).map(([name, [error, error_description]]) => [
              name,
              { value: { error, error_description } },
            ]),
          ),
        },
      },
    }),
  );

/** A redirect (no body). */

/** The 429 of the endpoints that check client secrets, which the backend rate-limits (docs/rate-limits.md). */
export const RateLimited = () =>
  OAuthRefusal(
    429,
    'Too many requests from this client or address, or too many failed client authentications (then refused even with the right secret until `Retry-After`).',
    { failedAuth: ['temporarily_unavailable', 'too many requests (failed-auth-client): retry after 900 s'] },
    {
      'Retry-After': {
        description: 'Seconds until the source may try again (RFC 9110).',
        schema: { type: 'integer' },
      },
      'RateLimit-Policy': {
        description:
          'The policy that refused, as the IETF RateLimit fields write it: `"failed-auth-client";q=10;w=900`.',
        schema: { type: 'string' },
      },
      RateLimit: {
        description: 'What is left of it: `"failed-auth-client";r=0;t=900`.',
        schema: { type: 'string' },
      },
    },
  );

export const Redirects = (status: 302 | 303, description: string) =>
  ApiResponse({ status, description, headers: { Location: { required: true, schema: { type: 'string' } } } });

/** A server-rendered page. */
export const Page = (status: number, description: string) =>
  ApiResponse({ status, description, content: { [HTML]: { schema: { type: 'string' } } } });

export const JsonBody = (model: Type<unknown>) =>
  applyDecorators(
    ApiConsumes(JSON_TYPE),
    ApiBody({ type: model }),
    Refuses(413, 'The body exceeds 64 KiB; refused before any route runs.'),
    Refuses(415, 'The body is not `application/json`.'),
  );

/** 500 and 503 as problem details: the backend fails closed when what it relies on is away. */
export const ServerFailures = () =>
  applyDecorators(
    Refuses(500, 'An unexpected failure (logged, never detailed).'),
    Refuses(
      503,
      'The sidecar (token validation) or the control plane cannot be reached: the backend fails closed.',
    ),
  );

/** A route without any credential. */
export const PublicOperation = (doc: Doc) =>
  applyDecorators(operation(doc), DeclaresAuthority(NO_CREDENTIAL));

/** The 401 of a route that authenticates OAuth clients. */
const ClientAuthenticationRefused = () =>
  OAuthRefusal(
    401,
    '`invalid_client`: unknown client, wrong secret, missing secret where one is required, or malformed Basic credentials.',
    {
      failed: ['invalid_client', 'client authentication failed'],
      malformedBasic: ['invalid_client', 'malformed Basic credentials'],
    },
    {
      'WWW-Authenticate': {
        description: 'Present when the client tried HTTP Basic authentication.',
        schema: { type: 'string', enum: ['Basic realm="oauth"'] },
      },
    },
  );

/**
 * The app login family's code exchange and refresh: a JSON body (its own `JsonBody`), the app
 * authenticated as at the token endpoint (`clientId` and `clientSecret` in the body, or Basic).
 */
export const AppClientOperation = (doc: Doc) =>
  applyDecorators(
    operation(doc),
    DeclaresAuthority(CLIENT_AUTHENTICATION),
    ApiSecurity('clientSecretBasic'),
    ApiSecurity({}),
    ClientAuthenticationRefused(),
  );

/** Token, introspection and revocation: a form body, client authentication, RFC 6749 errors. */
export const OAuthOperation = (doc: Doc, body: Type<unknown> | Type<unknown>[]) =>
  applyDecorators(
    operation(doc),
    DeclaresAuthority(CLIENT_AUTHENTICATION),
    // OpenAPI has no scheme for credentials in a form body: `{}` is the client_secret_post
    // (or public client) alternative, which each body describes.
    ApiSecurity('clientSecretBasic'),
    ApiSecurity({}),
    ApiConsumes(FORM),
    referencing(
      Array.isArray(body) ? body : [body],
      ApiBody({ schema: Array.isArray(body) ? { oneOf: body.map(ref) } : ref(body) }),
    ),
    ClientAuthenticationRefused(),
    OAuthRefusal(500, '`server_error`: an unexpected failure (logged, never detailed).', {
      serverError: ['server_error', 'Internal error'],
    }),
    OAuthRefusal(503, '`temporarily_unavailable`: the control plane cannot be reached.', {
      unavailable: ['temporarily_unavailable', 'The control plane is unavailable'],
    }),
  );

/** Any valid access token (RFC 6750). */
export const BearerOperation = (doc: Doc) =>
  applyDecorators(
    operation(doc),
    ApiExtraModels(BearerProblemDto),
    ApiSecurity('bearerAuth'),
    ApiResponse({
      status: 400,
      description:
        'RFC 6750 `invalid_request`: a malformed Authorization header; or a request the route refuses (problem details).',
      headers: BEARER_CHALLENGE as never,
      content: { [PROBLEM]: { schema: ref(BearerProblemDto) } },
    }),
    ApiResponse({
      status: 401,
      description:
        'No access token (bare challenge), or RFC 6750 `invalid_token`: malformed, badly signed, expired, revoked, or its app deleted.',
      headers: BEARER_CHALLENGE as never,
      content: { [PROBLEM]: { schema: ref(BearerProblemDto) } },
    }),
    ServerFailures(),
  );

/** An admin token: `admin.*` or `global_admin` (docs: how to obtain one). */
export const AdminOperation = (doc: Doc) =>
  applyDecorators(
    BearerOperation(doc),
    ApiResponse({
      status: 403,
      description:
        'RFC 6750 `insufficient_scope`: a valid token that is not an admin token (`admin.*` or `global_admin`).',
      headers: BEARER_CHALLENGE as never,
      content: { [PROBLEM]: { schema: ref(BearerProblemDto) } },
    }),
  );

/** A permission decided by the sidecar's policy engine. */
export const PermissionOperation = (doc: Doc) =>
  applyDecorators(
    BearerOperation(doc),
    ApiExtraModels(PermissionProblemDto, ProblemDto),
    ApiResponse({
      status: 403,
      description:
        'The policy engine refused the action (scope, role policy, another tenant): `insufficient_scope` with `decision_id` and `decided_by`; the control plane also refuses, as plain problem details, a caller outside the tenant and anyone but a `global_admin` granting `global_admin`.',
      headers: BEARER_CHALLENGE as never,
      content: { [PROBLEM]: { schema: { anyOf: [ref(PermissionProblemDto), ref(ProblemDto)] } } },
    }),
  );

/** Browser routes: HTML pages and redirects, errors as pages too. */
export const BrowserOperation = (doc: Doc, { session }: { session: 'required' | 'optional' | 'none' }) =>
  applyDecorators(
    operation(doc),
    DeclaresAuthority(session === 'none' ? NO_CREDENTIAL : BROWSER_SESSION),
    ...(session === 'none' ? [] : [ApiCookieAuth('sessionCookie')]),
    ...(session === 'optional' ? [ApiSecurity({})] : []),
    ApiProduces(HTML),
    Page(500, 'Error page: an unexpected failure, shown without detail.'),
    Page(
      503,
      'Error page: the identity provider or the control plane is unavailable (or no identity provider is configured).',
    ),
  );

/**
 * A form posted by one of the browser pages. `refusal`: what its 400 error page means. A body
 * sent as JSON that is not JSON is refused (400) before any route runs, as problem details.
 */
export const BrowserForm = (model: Type<unknown>, refusal = 'Error page: the request cannot be processed.') =>
  applyDecorators(
    ApiConsumes(FORM),
    ApiBody({ type: model }),
    referencing(
      [ProblemDto],
      ApiResponse({
        status: 400,
        description: `${refusal} (A body sent as \`application/json\` that is not JSON: problem details, before any route runs.)`,
        content: { [HTML]: { schema: { type: 'string' } }, [PROBLEM]: { schema: ref(ProblemDto) } },
      }),
    ),
    Page(403, 'Error page: the CSRF token is missing or does not belong to the session.'),
    Refuses(413, 'The body exceeds 64 KiB; refused before any route runs.'),
    Page(415, 'Error page: the form was not posted as `application/x-www-form-urlencoded`.'),
  );

export const NO_STORE = NO_STORE_HEADERS;
