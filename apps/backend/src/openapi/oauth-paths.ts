import { FORM, headerRef, jsonContent, oauthErrorResponse, responseRef, schemaRef } from './components';
import type { OperationObject, Paths, ResponseObject, SecurityRequirement } from './openapi-types';

/**
 * Client authentication of the OAuth endpoints: HTTP Basic, or (the `{}` alternative) the
 * credentials in the form body (`client_secret_post`) or, where a grant allows it, `client_id`
 * alone. OpenAPI has no security scheme for form fields, so the bodies describe them.
 */
const CLIENT_AUTH: SecurityRequirement[] = [{ clientSecretBasic: [] }, {}];

const NO_STORE = { 'Cache-Control': headerRef('CacheControlNoStore'), Pragma: headerRef('PragmaNoCache') };

const NOT_FORM: [string, string] = [
  'invalid_request',
  'The request body must be application/x-www-form-urlencoded',
];
const TOO_LARGE: [string, string] = ['invalid_request', 'Request body is too large'];
const REPEATED: [string, string] = ['invalid_request', 'parameter scope is repeated'];
const BOTH_METHODS: [string, string] = ['invalid_request', 'client authenticated with more than one method'];

/** Answers every OAuth endpoint shares besides its own. */
const OAUTH_COMMON: Record<string, ResponseObject | { $ref: string }> = {
  '401': responseRef('OAuthInvalidClient'),
  '500': responseRef('OAuthServerError'),
  '503': responseRef('OAuthUnavailable'),
};

const token: OperationObject = {
  operationId: 'issueToken',
  summary: 'Token endpoint (RFC 6749)',
  tags: ['OAuth'],
  description: [
    'Issues an access token for one of three grants: `client_credentials` (service model), `authorization_code` with PKCE S256, and `refresh_token` (rotating).',
    '',
    'Only `application/x-www-form-urlencoded` is accepted (a JSON body is `400 invalid_request`). Every answer carries `Cache-Control: no-store`.',
    '',
    'Status per condition (the specification leaves these "not shown"; RFC 6749 section 5.2 decides):',
    '- invalid client credentials: **401** `invalid_client` (with `WWW-Authenticate: Basic realm="oauth"` when Basic was tried);',
    '- a scope the app did not declare, or one beyond the original grant on refresh: **400** `invalid_scope`;',
    '- a wrong `code_verifier`, a code that is unknown, expired (60 s), already used or issued to another client, a `redirect_uri` that differs, or a refresh token that is unknown, expired, revoked or already rotated: **400** `invalid_grant` (a reused code or rotated refresh token also revokes every token of its grant);',
    '- a missing `grant_type`, `code`, `code_verifier` or `refresh_token`, a repeated parameter, two authentication methods at once, a body that is not form-encoded or larger than 64 KiB: **400** `invalid_request`;',
    '- a grant the app type may not use (for example `client_credentials` for a `web` app): **400** `unauthorized_client`;',
    '- any other `grant_type`: **400** `unsupported_grant_type`.',
  ].join('\n'),
  security: CLIENT_AUTH,
  requestBody: {
    required: true,
    content: {
      [FORM]: {
        schema: schemaRef('TokenRequest'),
        examples: {
          clientCredentials: {
            summary: 'client_credentials with client_secret_post',
            value: {
              grant_type: 'client_credentials',
              client_id: 'billing-worker',
              client_secret: '<secret>',
              scope: 'jobs.read',
            },
          },
          authorizationCode: {
            value: {
              grant_type: 'authorization_code',
              client_id: 'dashboard',
              code: '<code>',
              redirect_uri: 'https://dashboard.example.com/callback',
              code_verifier: '<verifier>',
            },
          },
          refreshToken: {
            value: { grant_type: 'refresh_token', client_id: 'dashboard', refresh_token: '<refresh token>' },
          },
        },
      },
    },
  },
  responses: {
    '200': {
      description: 'The token response.',
      headers: NO_STORE,
      content: jsonContent(schemaRef('TokenResponse')),
    },
    '400': oauthErrorResponse('A refused request, by RFC 6749 error code.', {
      invalidScope: ['invalid_scope', 'scope not declared by the client: files.write'],
      invalidGrantVerifier: ['invalid_grant', 'code_verifier does not match the code_challenge'],
      invalidGrantReuse: ['invalid_grant', 'the code was already used'],
      invalidGrantRefresh: ['invalid_grant', 'the refresh token was already used; its grant is revoked'],
      missingGrantType: ['invalid_request', 'grant_type is required'],
      notForm: NOT_FORM,
      tooLarge: TOO_LARGE,
      repeated: REPEATED,
      bothMethods: BOTH_METHODS,
      unauthorizedClient: ['unauthorized_client', 'a web app may not use client_credentials'],
      unsupportedGrantType: ['unsupported_grant_type', 'grant_type password is not supported'],
    }),
    ...OAUTH_COMMON,
  },
};

const introspect: OperationObject = {
  operationId: 'introspectToken',
  summary: 'Token introspection (RFC 7662)',
  tags: ['OAuth'],
  description:
    'Tells a resource server whether a token is active. The caller authenticates with its secret (Basic or form). It sees its own tokens in the full form; an app declaring `admin.*` or `tokens.introspect` sees any token; for anything else the answer is exactly `{"active": false}` with status 200, as for an expired, revoked or unknown token.',
  security: CLIENT_AUTH,
  requestBody: { required: true, content: { [FORM]: { schema: schemaRef('IntrospectionRequest') } } },
  responses: {
    '200': {
      description: 'Active (full form) or exactly `{"active": false}`.',
      headers: { 'Cache-Control': headerRef('CacheControlNoStore') },
      content: jsonContent(schemaRef('IntrospectionResponse'), {
        active: {
          value: {
            active: true,
            client_id: 'billing-worker',
            scope: 'jobs.read',
            sub: 'billing-worker',
            iat: 1779350400,
            exp: 1779354000,
            iss: 'https://auth.example.com',
            aud: 'https://auth.example.com',
            jti: 'b9Zk0Jq3S3iN7d8v1mQkVw',
            token_type: 'Bearer',
          },
        },
        inactive: { value: { active: false } },
      }),
    },
    '400': oauthErrorResponse(
      '`invalid_request`: no `token`, a repeated parameter, or a body that is not a form.',
      {
        missingToken: ['invalid_request', 'token is required'],
        notForm: NOT_FORM,
        tooLarge: TOO_LARGE,
        bothMethods: BOTH_METHODS,
      },
    ),
    ...OAUTH_COMMON,
  },
};

const revoke: OperationObject = {
  operationId: 'revokeToken',
  summary: 'Token revocation (RFC 7009)',
  tags: ['OAuth'],
  description:
    'Revokes an access token (its `jti` joins the deny-list; this backend’s sidecar knows before the answer, every other within well under a second, at most 30 s) or a refresh token (with every token of its grant). Unknown, expired and already revoked tokens answer 200 as well. A client may revoke only its own tokens (another app’s token: **400** `unauthorized_client`, as fosite does), except the admin app. An app without a secret (`spa`) sends its `client_id` alone. The answer body is always `{}` (a decision: RFC 7009 only asks for 200).',
  security: CLIENT_AUTH,
  requestBody: { required: true, content: { [FORM]: { schema: schemaRef('RevocationRequest') } } },
  responses: {
    '200': {
      description: 'Revoked, or nothing to revoke.',
      headers: { 'Cache-Control': headerRef('CacheControlNoStore') },
      content: jsonContent(schemaRef('EmptyObject')),
    },
    '400': oauthErrorResponse('`invalid_request` or `unauthorized_client`.', {
      missingToken: ['invalid_request', 'token is required'],
      notOwner: ['unauthorized_client', 'the token was not issued to this client'],
      notForm: NOT_FORM,
      tooLarge: TOO_LARGE,
      bothMethods: BOTH_METHODS,
    }),
    ...OAUTH_COMMON,
  },
};

const jwks: OperationObject = {
  operationId: 'getJwks',
  summary: 'The key set (RFC 7517)',
  tags: ['Keys and discovery'],
  description:
    'The public keys that verify issued tokens, so that external services need not call the sidecar. No credential. Cached for 60 s (`Cache-Control: public, max-age=60`); on an unknown `kid`, fetch it again.',
  security: [],
  responses: {
    '200': {
      description: 'The key set.',
      headers: { 'Cache-Control': { schema: { type: 'string', const: 'public, max-age=60' } } },
      content: jsonContent(schemaRef('JsonWebKeySet')),
    },
    '500': responseRef('ServerError'),
    '503': responseRef('Unavailable'),
  },
};

const metadata: OperationObject = {
  operationId: 'getAuthorizationServerMetadata',
  summary: 'Authorization server metadata (RFC 8414)',
  tags: ['Keys and discovery'],
  description: 'Lets standard clients (openid-client, oauth4webapi) discover every endpoint. No credential.',
  security: [],
  responses: {
    '200': {
      description: 'The metadata.',
      headers: { 'Cache-Control': { schema: { type: 'string', const: 'public, max-age=300' } } },
      content: jsonContent(schemaRef('AuthorizationServerMetadata')),
    },
  },
};

export const oauthPaths: Paths = {
  '/v1/oauth/token': { post: token },
  '/v1/oauth/introspect': { post: introspect },
  '/v1/oauth/revoke': { post: revoke },
  '/v1/jwks': { get: jwks },
  '/.well-known/oauth-authorization-server': { get: metadata },
};

/** The token operation, reused by `POST /api/v1/auth/token` (same answers, client_credentials only). */
export const tokenOperation = token;
