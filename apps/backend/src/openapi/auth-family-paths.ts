import {
  FORM,
  headerRef,
  jsonContent,
  oauthErrorResponse,
  problemResponse,
  redirect,
  responseRef,
  schemaRef,
} from './components';
import { tokenOperation } from './oauth-paths';
import type { OperationObject, Paths, ReferenceObject, ResponseObject } from './openapi-types';

type Responses = Record<string, ResponseObject | ReferenceObject>;

const NO_STORE = { 'Cache-Control': headerRef('CacheControlNoStore') };

/** The login family's JSON endpoints are public: the body carries the credential. */
const JSON_BODY_ERRORS: Responses = {
  '413': responseRef('PayloadTooLarge'),
  '415': responseRef('UnsupportedMediaType'),
  '500': responseRef('ServerError'),
  '503': responseRef('Unavailable'),
};

/**
 * 400 of the code exchange and refresh: the control plane's RFC 6749 refusal relayed as it is
 * (`application/json`), or problem details when the body is not a JSON object.
 */
function codeOrBodyRefused(
  description: string,
  conditions: Record<string, [string, string]>,
): ResponseObject {
  const oauth = oauthErrorResponse(description, conditions);
  return {
    ...oauth,
    content: {
      ...oauth.content,
      ...problemResponse(400, 'Bad Request', description, { notAnObject: 'the body must be a JSON object' })
        .content,
    },
  };
}

const appLogin: OperationObject = {
  operationId: 'appLogin',
  summary: 'Start an app’s user login',
  tags: ['App login family'],
  description: [
    'Login flow of the user-forwarding model:',
    '1. the app sends the browser here with `return_to` (its callback URL);',
    '2. after the identity provider (callback `/auth/oidc/callback`), the backend redirects the browser to `return_to?code=<one-time code>` (60 s, single use, stored hashed);',
    '3. the app swaps the code server-to-server at `POST /api/v1/auth/exchange` (the path and body the specification leaves "not shown").',
    '',
    '`return_to` must equal a registered redirect URI of exactly one app; anything else is a **400** page, never a redirect (no open redirect).',
  ].join('\n'),
  security: [],
  parameters: [
    {
      name: 'return_to',
      in: 'query',
      required: true,
      description: 'The app’s callback URL, a registered redirect URI.',
      schema: { type: 'string', format: 'uri' },
    },
  ],
  responses: {
    '302': redirect('To the identity provider.', { ...NO_STORE, 'Set-Cookie': headerRef('SetCookie') }),
    '400': responseRef('HtmlBadRequest'),
    '500': responseRef('HtmlServerError'),
    '503': responseRef('HtmlUnavailable'),
  },
};

const exchange: OperationObject = {
  operationId: 'exchangeLoginCode',
  summary: 'Swap the login code for tokens',
  tags: ['App login family'],
  description:
    'Server-to-server, once per code (the specification leaves path and body "not shown"; decided: JSON `{code}` -> `{accessToken, refreshToken, tokenType, expiresIn, scope}`). A code that is unknown, used or older than 60 s: **400** `invalid_grant`.',
  security: [],
  requestBody: { required: true, content: jsonContent(schemaRef('CodeExchangeRequest')) },
  responses: {
    '200': {
      description: 'The user’s tokens.',
      headers: NO_STORE,
      content: jsonContent(schemaRef('AppTokens')),
    },
    '400': codeOrBodyRefused(
      'The code is refused (RFC 6749 JSON), or the body is not a JSON object (problem details).',
      {
        unknown: ['invalid_grant', 'the code is unknown'],
        used: ['invalid_grant', 'the code was already used'],
        expired: ['invalid_grant', 'the code has expired'],
        missing: ['invalid_request', 'code is required'],
      },
    ),
    ...JSON_BODY_ERRORS,
  },
};

const refresh: OperationObject = {
  operationId: 'refreshAppTokens',
  summary: 'Refresh the user’s tokens',
  tags: ['App login family'],
  description:
    'Body and answer are "not shown" in the specification; decided: JSON `{refreshToken}` -> the same shape as the code exchange. The rules of the `refresh_token` grant apply: the presented token is revoked at once, and presenting a rotated one revokes the whole grant (**400** `invalid_grant`). Clients refresh with a single request at a time, when a call answers 401 or at 80% of `expiresIn`.',
  security: [],
  requestBody: { required: true, content: jsonContent(schemaRef('AppRefreshRequest')) },
  responses: {
    '200': { description: 'New tokens.', headers: NO_STORE, content: jsonContent(schemaRef('AppTokens')) },
    '400': codeOrBodyRefused(
      'The refresh token is refused (RFC 6749 JSON), or the body is not a JSON object (problem details).',
      {
        unknown: ['invalid_grant', 'the refresh token is unknown'],
        rotated: ['invalid_grant', 'the refresh token was already used; its grant is revoked'],
        expired: ['invalid_grant', 'the refresh token has expired'],
        missing: ['invalid_request', 'refreshToken is required'],
      },
    ),
    ...JSON_BODY_ERRORS,
  },
};

const validateDescription =
  'Asks the sidecar whether a token is valid (signature, expiry, deny-list, app still registered). The answer body is "not shown" in the specification; decided: **200** `{active: true, sub, client_id, scope, tenant?, roles?, exp}` or exactly `{active: false}`; an invalid token is not an error. No credential of its own.';

const validateGet: OperationObject = {
  operationId: 'validateTokenByQuery',
  summary: 'Validate a token (query)',
  tags: ['App login family'],
  description: `${validateDescription} Prefer the POST form: a token in a URL can end up in logs.`,
  security: [],
  parameters: [{ name: 'token', in: 'query', required: true, schema: { type: 'string' } }],
  responses: {
    '200': {
      description: 'The judgement.',
      headers: NO_STORE,
      content: jsonContent(schemaRef('TokenValidation')),
    },
    '400': problemResponse(400, 'Bad Request', 'No `token`.', { missing: 'token is required' }),
    '500': responseRef('ServerError'),
    '503': responseRef('Unavailable'),
  },
};

const validatePost: OperationObject = {
  operationId: 'validateToken',
  summary: 'Validate a token',
  tags: ['App login family'],
  description: `${validateDescription} Request body (also "not shown"): JSON \`{token}\`.`,
  security: [],
  requestBody: { required: true, content: jsonContent(schemaRef('ValidateRequest')) },
  responses: {
    '200': {
      description: 'The judgement.',
      headers: NO_STORE,
      content: jsonContent(schemaRef('TokenValidation')),
    },
    '400': problemResponse(400, 'Bad Request', 'No `token`, or a body that is not a JSON object.', {
      missing: 'token is required',
      notAnObject: 'the body must be a JSON object',
    }),
    ...JSON_BODY_ERRORS,
  },
};

const revoke: OperationObject = {
  operationId: 'revokeOwnToken',
  summary: 'Revoke the Bearer token itself',
  tags: ['App login family'],
  description:
    'Revokes the access token sent as the Bearer token (logout of the user-forwarding model). **200** `{}` also when the token is already expired, revoked or unknown, as RFC 7009 does; only a request without any Bearer token is **401**.',
  security: [{ bearerAuth: [] }],
  responses: {
    '200': { description: 'Revoked, or nothing to revoke.', content: jsonContent(schemaRef('EmptyObject')) },
    '400': responseRef('BearerInvalidRequest'),
    '401': responseRef('BearerUnauthorized'),
    '500': responseRef('ServerError'),
    '503': responseRef('Unavailable'),
  },
};

const appToken: OperationObject = {
  ...tokenOperation,
  operationId: 'issueServiceToken',
  summary: 'client_credentials token (login family path)',
  tags: ['App login family'],
  description:
    'The service model’s `client_credentials` grant under the `/api/v1` family: form body `grant_type`, `client_id`, `client_secret` (or Basic), optional `scope`; the same answers and errors as `POST /v1/oauth/token` (any other `grant_type` is `unsupported_grant_type`; a body over 64 KiB is problem details 413 here).',
  requestBody: {
    required: true,
    content: { [FORM]: { schema: schemaRef('ClientCredentialsTokenRequest') } },
  },
  responses: {
    ...tokenOperation.responses,
    '400': oauthErrorResponse('A refused request, by RFC 6749 error code.', {
      invalidScope: ['invalid_scope', 'scope not declared by the client: files.write'],
      missingGrantType: ['invalid_request', 'grant_type is required'],
      notForm: ['invalid_request', 'The request body must be application/x-www-form-urlencoded'],
      bothMethods: ['invalid_request', 'client authenticated with more than one method'],
      unauthorizedClient: ['unauthorized_client', 'a web app may not use client_credentials'],
      otherGrant: [
        'unsupported_grant_type',
        'grant_type authorization_code is not supported here; only client_credentials',
      ],
    }),
    '413': responseRef('PayloadTooLarge'),
  },
};

export const authFamilyPaths: Paths = {
  '/api/v1/auth/oidc/login': { get: appLogin },
  '/api/v1/auth/exchange': { post: exchange },
  '/api/v1/auth/refresh': { post: refresh },
  '/api/v1/auth/validate': { get: validateGet, post: validatePost },
  '/api/v1/auth/revoke': { post: revoke },
  '/api/v1/auth/token': { post: appToken },
};
