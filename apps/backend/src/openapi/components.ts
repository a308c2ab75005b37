import type {
  ExampleObject,
  HeaderObject,
  MediaTypeObject,
  ParameterObject,
  ReferenceObject,
  ResponseObject,
  Schema,
  SecuritySchemeObject,
} from './openapi-types';

/** Media types of the surface. */
export const FORM = 'application/x-www-form-urlencoded';
export const JSON_TYPE = 'application/json';
export const PROBLEM = 'application/problem+json';
export const HTML = 'text/html';

export const schemaRef = (name: string): ReferenceObject => ({ $ref: `#/components/schemas/${name}` });
export const responseRef = (name: string): ReferenceObject => ({ $ref: `#/components/responses/${name}` });
export const headerRef = (name: string): ReferenceObject => ({ $ref: `#/components/headers/${name}` });
export const parameterRef = (name: string): ReferenceObject => ({ $ref: `#/components/parameters/${name}` });

/** A JSON body of the given schema, with named examples when given. */
export function jsonContent(
  schema: Schema,
  examples?: Record<string, ExampleObject>,
  mediaType: string = JSON_TYPE,
): Record<string, MediaTypeObject> {
  return { [mediaType]: examples === undefined ? { schema } : { schema, examples } };
}

/**
 * An RFC 6749 section 5.2 error answer whose examples name every condition that produces it:
 * `conditions` maps an example name to `[error code, error_description as sent]`.
 */
export function oauthErrorResponse(
  description: string,
  conditions: Record<string, [string, string]>,
  headers: ResponseObject['headers'] = {},
): ResponseObject {
  const examples: Record<string, ExampleObject> = {};
  for (const [name, [error, errorDescription]] of Object.entries(conditions)) {
    examples[name] = { value: { error, error_description: errorDescription } };
  }
  return {
    description,
    headers: {
      'Cache-Control': headerRef('CacheControlNoStore'),
      Pragma: headerRef('PragmaNoCache'),
      ...headers,
    },
    content: jsonContent(schemaRef('OAuthError'), examples),
  };
}

/** An RFC 9457 problem answer with one example per condition (`detail` as sent). */
export function problemResponse(
  status: number,
  title: string,
  description: string,
  conditions: Record<string, string>,
): ResponseObject {
  const examples: Record<string, ExampleObject> = {};
  for (const [name, detail] of Object.entries(conditions)) {
    examples[name] = { value: { type: 'about:blank', title, status, detail } };
  }
  const hasExamples = Object.keys(examples).length > 0;
  return {
    description,
    content: jsonContent(schemaRef('Problem'), hasExamples ? examples : undefined, PROBLEM),
  };
}

/** A server-rendered HTML page (the browser routes' answers, errors included). */
export function htmlPage(description: string, headers: ResponseObject['headers'] = {}): ResponseObject {
  return {
    description,
    headers: { 'Content-Security-Policy': headerRef('ContentSecurityPolicy'), ...headers },
    content: { [HTML]: { schema: { type: 'string' } } },
  };
}

/** A redirect of the browser routes (no body). */
export function redirect(description: string, extraHeaders: ResponseObject['headers'] = {}): ResponseObject {
  return { description, headers: { Location: headerRef('Location'), ...extraHeaders } };
}

export const headers: Record<string, HeaderObject> = {
  WwwAuthenticateBearer: {
    description:
      'RFC 6750 challenge: `Bearer realm="oauth"` when no token was sent; otherwise with `error`, `error_description` and, for `insufficient_scope`, `scope`.',
    schema: {
      type: 'string',
      examples: ['Bearer realm="oauth", error="invalid_token", error_description="..."'],
    },
  },
  WwwAuthenticateBasic: {
    description: 'Present on `invalid_client` when the client tried HTTP Basic authentication.',
    schema: { type: 'string', const: 'Basic realm="oauth"' },
  },
  CacheControlNoStore: { schema: { type: 'string', const: 'no-store' } },
  PragmaNoCache: { schema: { type: 'string', const: 'no-cache' } },
  Link: {
    description:
      'RFC 8288 `Link: <{issuer}/v1/oauth/apps?limit=..&after=..>; rel="next"` while more items remain.',
    schema: { type: 'string' },
  },
  Location: { required: true, schema: { type: 'string', format: 'uri-reference' } },
  SetCookie: {
    description:
      'The browser session cookie (`__Host-session`, or `session` over plain HTTP in development): HttpOnly, SameSite=Lax, Path=/, Secure; or the sealed login transaction (`__Host-login`).',
    schema: { type: 'string' },
  },
  ContentSecurityPolicy: {
    description:
      "No script, framing forbidden, form targets limited to 'self' (and the client's redirect origin).",
    schema: { type: 'string' },
  },
};

export const parameters: Record<string, ParameterObject> = {
  ClientId: {
    name: 'id',
    in: 'path',
    required: true,
    description: 'The application’s `client_id`.',
    schema: { type: 'string' },
  },
  Tenant: { name: 'tenant', in: 'path', required: true, schema: { type: 'string' }, example: 'acme' },
  UserId: { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
};

export const securitySchemes: Record<string, SecuritySchemeObject> = {
  bearerAuth: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description:
      'An access token of this platform (RFC 9068 JWT), validated by the backend’s sidecar on every request. **Admin token** (the specification leaves how to obtain one "not shown"): a `client_credentials` token of an app declaring `admin.*` (at first start the bootstrap app `ADMIN_CLIENT_ID`, default `admin`, whose secret is `ADMIN_CLIENT_SECRET` or `DATA_DIR/admin-credentials.json`), or a user token with the `global_admin` role.',
  },
  clientSecretBasic: {
    type: 'http',
    scheme: 'basic',
    description:
      'OAuth client authentication `client_secret_basic` (RFC 6749 section 2.3.1): `client_id:client_secret`, each form-encoded. The alternative `client_secret_post` sends `client_id` and `client_secret` in the form body instead (described in each request body); using both at once is `invalid_request`.',
  },
  sessionCookie: {
    type: 'apiKey',
    in: 'cookie',
    name: '__Host-session',
    description:
      'The browser session set by the login callback (`session` instead of `__Host-session` over plain HTTP in development): opaque, HttpOnly, SameSite=Lax, 8 hours. Every cookie-authenticated POST also needs the page’s `csrf_token`.',
  },
};

/** Reusable error answers. */
export const responses: Record<string, ResponseObject> = {
  OAuthInvalidClient: oauthErrorResponse(
    '`invalid_client`: unknown client, wrong secret, missing secret where one is required, or malformed Basic credentials.',
    {
      failed: ['invalid_client', 'client authentication failed'],
      malformedBasic: ['invalid_client', 'malformed Basic credentials'],
    },
    { 'WWW-Authenticate': headerRef('WwwAuthenticateBasic') },
  ),
  OAuthServerError: oauthErrorResponse('`server_error`: an unexpected failure (logged, never detailed).', {
    serverError: ['server_error', 'Internal error'],
  }),
  OAuthUnavailable: oauthErrorResponse('`temporarily_unavailable`: the control plane cannot be reached.', {
    unavailable: ['temporarily_unavailable', 'The control plane is unavailable'],
  }),
  BearerInvalidRequest: {
    description: 'RFC 6750 `invalid_request`: the Authorization header is not of the form `Bearer <token>`.',
    headers: { 'WWW-Authenticate': headerRef('WwwAuthenticateBearer') },
    content: jsonContent(
      schemaRef('BearerProblem'),
      {
        malformed: {
          value: {
            type: 'about:blank',
            title: 'Bad Request',
            status: 400,
            detail: 'The Authorization header is not of the form "Bearer <token>"',
            error: 'invalid_request',
          },
        },
      },
      PROBLEM,
    ),
  },
  BearerUnauthorized: {
    description:
      'No access token (bare challenge), or RFC 6750 `invalid_token`: malformed, badly signed, expired, revoked, or its app deleted. A client holding a refresh token refreshes and retries.',
    headers: { 'WWW-Authenticate': headerRef('WwwAuthenticateBearer') },
    content: jsonContent(
      schemaRef('BearerProblem'),
      {
        missing: {
          value: {
            type: 'about:blank',
            title: 'Unauthorized',
            status: 401,
            detail: 'An access token is required',
          },
        },
        invalid: {
          value: {
            type: 'about:blank',
            title: 'Unauthorized',
            status: 401,
            detail: 'token expired',
            error: 'invalid_token',
          },
        },
      },
      PROBLEM,
    ),
  },
  AdminForbidden: {
    description:
      'RFC 6750 `insufficient_scope`: a valid token that is not an admin token (`admin.*` or `global_admin`).',
    headers: { 'WWW-Authenticate': headerRef('WwwAuthenticateBearer') },
    content: jsonContent(
      schemaRef('BearerProblem'),
      {
        notAdmin: {
          value: {
            type: 'about:blank',
            title: 'Forbidden',
            status: 403,
            detail: 'An admin token is required',
            error: 'insufficient_scope',
          },
        },
      },
      PROBLEM,
    ),
  },
  PermissionDenied: {
    description:
      'The sidecar’s policy engine refused the action (scope not covering it, role policy, another tenant): 403 with `error: "insufficient_scope"`, `decision_id` and `decided_by`, and a `WWW-Authenticate` challenge naming the action as `scope`. The control plane also refuses, as plain problem details, a caller outside the tenant and anyone but a `global_admin` granting or removing `global_admin`.',
    headers: { 'WWW-Authenticate': headerRef('WwwAuthenticateBearer') },
    content: jsonContent(
      { anyOf: [schemaRef('PermissionProblem'), schemaRef('Problem')] },
      {
        denied: {
          value: {
            type: 'about:blank',
            title: 'Forbidden',
            status: 403,
            detail: 'The caller may not users.read here',
            error: 'insufficient_scope',
            decision_id: 'dec-5f1c',
            decided_by: ['role:viewer'],
          },
        },
        otherTenant: {
          value: {
            type: 'about:blank',
            title: 'Forbidden',
            status: 403,
            detail: 'the caller does not belong to tenant acme',
          },
        },
      },
      PROBLEM,
    ),
  },
  PayloadTooLarge: problemResponse(
    413,
    'Payload Too Large',
    'The body exceeds 64 KiB; refused before any route runs, so problem details here (the OAuth endpoints answer `400 invalid_request` instead).',
    {
      tooLarge: 'Request body is too large',
    },
  ),
  UnsupportedMediaType: problemResponse(
    415,
    'Unsupported Media Type',
    'The body is not `application/json`.',
    {
      notJson: 'The request body must be application/json',
    },
  ),
  Unavailable: problemResponse(
    503,
    'Service Unavailable',
    'The sidecar (token validation) or the control plane cannot be reached: the backend fails closed.',
    {
      sidecar: 'Token validation is unavailable',
      controlPlane: 'The control plane is unavailable',
    },
  ),
  ServerError: problemResponse(
    500,
    'Internal Server Error',
    'An unexpected failure (logged, never detailed).',
    {},
  ),
  HtmlBadRequest: htmlPage(
    'Error page (400): the request cannot be processed, and the browser is not sent anywhere (for example an unknown client or an unregistered redirect URI).',
  ),
  HtmlForbidden: htmlPage(
    'Error page (403): the CSRF token is missing or does not belong to the session, or the identity provider refused the sign-in.',
  ),
  HtmlUnsupportedMediaType: htmlPage(
    'Error page (415): the form was not posted as `application/x-www-form-urlencoded`.',
  ),
  HtmlUnavailable: htmlPage(
    'Error page (503): the identity provider or the control plane is unavailable (or no identity provider is configured).',
  ),
  HtmlServerError: htmlPage('Error page (500): an unexpected failure, shown without detail.'),
};
