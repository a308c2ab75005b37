import { APP_TYPES, CLIENT_ID_PATTERN, ROLE_BUNDLE, SCOPE_PATTERN, STANDARD_SCOPES } from '@platform/domain';
import { schemaRef } from './components';
import type { Schema } from './openapi-types';

/**
 * The bodies of the surface, as the backend and the control plane really send them (their
 * patterns and enumerations come from the domain, so they cannot drift from it).
 */

const timestamp = (description: string): Schema => ({ type: 'string', format: 'date-time', description });

const CLIENT_ID: Schema = {
  type: 'string',
  pattern: CLIENT_ID_PATTERN.source,
  description: '3 to 64 characters of `A-Z a-z 0-9 . _ -`, chosen by the caller at registration.',
  examples: ['billing-worker'],
};

const SCOPE_NAME: Schema = {
  type: 'string',
  pattern: SCOPE_PATTERN.source,
  description:
    '`resource.action`; a declared `resource.*` permits every `resource.<action>` and itself (`jobs.*` covers `jobs.read`).',
  examples: ['jobs.read', 'jobs.*'],
};

const SPACE_SEPARATED_SCOPES: Schema = {
  type: 'string',
  description: 'Space-separated scope names.',
  examples: ['jobs.read files.read'],
};

const ROLE_NAME: Schema = {
  type: 'string',
  enum: [...ROLE_BUNDLE],
  description: 'A role of the default role bundle.',
};

const OAUTH_ERROR_CODES = [
  'invalid_request',
  'invalid_client',
  'invalid_grant',
  'unauthorized_client',
  'unsupported_grant_type',
  'invalid_scope',
  'access_denied',
  'unsupported_response_type',
  'unsupported_token_type',
  'server_error',
  'temporarily_unavailable',
];

const TOKEN_EVENT_TYPES = [
  'token.issued',
  'token.revoked',
  'refresh_token.rotated',
  'grant.revoked',
  'app.registered',
  'app.deleted',
  'app.secret_rotated',
];

export const schemas: Record<string, Schema> = {
  OAuthError: {
    type: 'object',
    description:
      'RFC 6749 section 5.2 error object: every error of the token, introspection and revocation endpoints (and of `POST /api/v1/auth/token`). `invalid_client` is 401, `temporarily_unavailable` 503, `server_error` 500, every other code 400.',
    properties: {
      error: { type: 'string', enum: OAUTH_ERROR_CODES },
      error_description: {
        type: 'string',
        description: 'Human-readable; never a secret, SQL or stack trace.',
      },
    },
    required: ['error', 'error_description'],
  },
  Problem: {
    type: 'object',
    description:
      'RFC 9457 problem details (`application/problem+json`): every error outside the OAuth endpoints and the browser pages. `type` is always `about:blank`, so `title` is the HTTP status phrase and `detail` says what went wrong.',
    properties: {
      type: { type: 'string', const: 'about:blank' },
      title: { type: 'string', examples: ['Not Found'] },
      status: { type: 'integer', minimum: 400, maximum: 599 },
      detail: { type: 'string' },
    },
    required: ['type', 'title', 'status'],
  },
  BearerProblem: {
    description:
      'A refused Bearer credential (RFC 6750): problem details plus the RFC 6750 `error` code, which the `WWW-Authenticate` challenge repeats. Absent when no credential was sent at all (bare `Bearer realm="oauth"` challenge, RFC 6750 section 3.1).',
    allOf: [
      schemaRef('Problem'),
      {
        type: 'object',
        properties: {
          error: { type: 'string', enum: ['invalid_request', 'invalid_token', 'insufficient_scope'] },
        },
      },
    ],
  },
  PermissionProblem: {
    description:
      'A permission refused by the policy engine: problem details (403) with `error: "insufficient_scope"` and the id and author of the decision, to quote when asking an administrator.',
    allOf: [
      schemaRef('Problem'),
      {
        type: 'object',
        properties: {
          error: { type: 'string', const: 'insufficient_scope' },
          decision_id: { type: 'string', description: 'Identifier of the policy decision.' },
          decided_by: {
            type: 'array',
            items: { type: 'string' },
            description: 'The policies that made the decision (to find it in the sidecar’s log).',
          },
        },
        required: ['error', 'decision_id', 'decided_by'],
      },
    ],
  },
  TokenResponse: {
    type: 'object',
    description: 'RFC 6749 section 5.1. Sent with `Cache-Control: no-store` and `Pragma: no-cache`.',
    properties: {
      access_token: {
        type: 'string',
        description:
          'An RS256 JWT (RFC 9068, header `typ: at+jwt`, `kid`). Claims: `iss`, `sub`, `aud` (= the issuer), `exp`, `iat`, `jti`, `client_id`, `scope`; user tokens add `tenant`, `roles` and `grant_id`.',
      },
      token_type: { type: 'string', const: 'Bearer' },
      expires_in: { type: 'integer', const: 3600, description: 'Seconds; refresh at 80% of it.' },
      scope: SPACE_SEPARATED_SCOPES,
      refresh_token: {
        type: 'string',
        description:
          'Opaque; for the `authorization_code` and `refresh_token` grants only. Rotates on every use and lives 30 days from its issue; presenting a rotated one revokes the whole grant.',
      },
    },
    required: ['access_token', 'token_type', 'expires_in', 'scope'],
  },
  ClientCredentialsTokenRequest: {
    type: 'object',
    title: 'client_credentials',
    description:
      'Service model. Authenticate with `client_secret_basic` (Authorization: Basic) or with `client_id` and `client_secret` in this body (`client_secret_post`), never both. An omitted `scope` grants every declared scope.',
    properties: {
      grant_type: { type: 'string', const: 'client_credentials' },
      client_id: { type: 'string', description: 'Required unless Basic authentication is used.' },
      client_secret: {
        type: 'string',
        writeOnly: true,
        description: 'Required unless Basic authentication is used.',
      },
      scope: SPACE_SEPARATED_SCOPES,
    },
    required: ['grant_type'],
  },
  AuthorizationCodeTokenRequest: {
    type: 'object',
    title: 'authorization_code',
    description:
      'Exchange of a code from `/oauth/authorize` (single use, 60 s), server-side. PKCE S256 is mandatory. Public clients send `client_id` alone; a client with a secret may authenticate with it.',
    properties: {
      grant_type: { type: 'string', const: 'authorization_code' },
      client_id: { type: 'string' },
      client_secret: { type: 'string', writeOnly: true, description: 'Optional (apps with a secret).' },
      code: { type: 'string' },
      redirect_uri: {
        type: 'string',
        format: 'uri',
        description: 'Exactly the one of the authorization request.',
      },
      code_verifier: { type: 'string', minLength: 43, maxLength: 128 },
    },
    required: ['grant_type', 'code', 'redirect_uri', 'code_verifier'],
  },
  RefreshTokenRequest: {
    type: 'object',
    title: 'refresh_token',
    description:
      'Swaps a refresh token for a new access token and a new refresh token; the presented one is revoked at once. `scope` may only narrow the original grant.',
    properties: {
      grant_type: { type: 'string', const: 'refresh_token' },
      client_id: { type: 'string' },
      client_secret: { type: 'string', writeOnly: true, description: 'Optional (apps with a secret).' },
      refresh_token: { type: 'string' },
      scope: SPACE_SEPARATED_SCOPES,
    },
    required: ['grant_type', 'refresh_token'],
  },
  TokenRequest: {
    description:
      'RFC 6749 section 3.2 form body, one of three grants. A repeated parameter is `invalid_request`; an empty value counts as absent.',
    oneOf: [
      schemaRef('ClientCredentialsTokenRequest'),
      schemaRef('AuthorizationCodeTokenRequest'),
      schemaRef('RefreshTokenRequest'),
    ],
    discriminator: {
      propertyName: 'grant_type',
      mapping: {
        client_credentials: '#/components/schemas/ClientCredentialsTokenRequest',
        authorization_code: '#/components/schemas/AuthorizationCodeTokenRequest',
        refresh_token: '#/components/schemas/RefreshTokenRequest',
      },
    },
  },
  IntrospectionRequest: {
    type: 'object',
    description:
      'RFC 7662 section 2.1. The caller authenticates with its secret (Basic, or `client_id` and `client_secret` here). `token_type_hint` is accepted and ignored: both kinds are looked up.',
    properties: {
      token: { type: 'string', description: 'An access token (JWT) or a refresh token.' },
      token_type_hint: { type: 'string', enum: ['access_token', 'refresh_token'] },
      client_id: { type: 'string' },
      client_secret: { type: 'string', writeOnly: true },
    },
    required: ['token'],
  },
  ActiveIntrospection: {
    type: 'object',
    properties: {
      active: { type: 'boolean', const: true },
      client_id: { type: 'string' },
      scope: SPACE_SEPARATED_SCOPES,
      sub: { type: 'string', description: 'The client_id for service tokens, the user id for user tokens.' },
      iat: { type: 'integer', description: 'Unix seconds.' },
      exp: { type: 'integer', description: 'Unix seconds.' },
      iss: { type: 'string' },
      aud: { type: 'string' },
      jti: { type: 'string', description: 'Access tokens only.' },
      token_type: { type: 'string', enum: ['Bearer', 'refresh_token'] },
      tenant: { type: 'string', description: 'User tokens only.' },
      roles: { type: 'array', items: ROLE_NAME, description: 'User tokens only.' },
    },
    required: ['active', 'client_id', 'scope', 'sub', 'iat', 'exp', 'iss', 'aud', 'token_type'],
  },
  InactiveIntrospection: {
    type: 'object',
    description: 'Exactly `{"active": false}`: expired, revoked, unknown, or not the caller’s to see.',
    properties: { active: { type: 'boolean', const: false } },
    required: ['active'],
    additionalProperties: false,
  },
  IntrospectionResponse: {
    description:
      'RFC 7662 section 2.2. A client sees its own tokens; an app declaring `admin.*` or `tokens.introspect` sees any token. Everything else, and every inactive token, is exactly `{"active": false}`, so the answer never tells whether a stranger’s token exists.',
    oneOf: [schemaRef('ActiveIntrospection'), schemaRef('InactiveIntrospection')],
  },
  RevocationRequest: {
    type: 'object',
    description:
      'RFC 7009 section 2.1. Authenticate with the secret (Basic or form); an app without a secret (`spa`) sends its `client_id` alone. `token_type_hint` is accepted and ignored.',
    properties: {
      token: { type: 'string', description: 'An access token or a refresh token.' },
      token_type_hint: { type: 'string', enum: ['access_token', 'refresh_token'] },
      client_id: { type: 'string' },
      client_secret: { type: 'string', writeOnly: true },
    },
    required: ['token'],
  },
  EmptyObject: {
    type: 'object',
    description: 'Always `{}`.',
    additionalProperties: false,
  },
  JsonWebKey: {
    type: 'object',
    properties: {
      kty: { type: 'string', const: 'RSA' },
      use: { type: 'string', const: 'sig' },
      alg: { type: 'string', const: 'RS256' },
      kid: { type: 'string', description: 'The RFC 7638 thumbprint of the key.' },
      n: { type: 'string', description: 'Modulus, base64url.' },
      e: { type: 'string', description: 'Exponent, base64url.', examples: ['AQAB'] },
    },
    required: ['kty', 'use', 'alg', 'kid', 'n', 'e'],
  },
  JsonWebKeySet: {
    type: 'object',
    description:
      'RFC 7517 key set. During a rotation several keys are published; the newest signs, the previous one stays for one token lifetime plus a minute.',
    properties: { keys: { type: 'array', items: schemaRef('JsonWebKey') } },
    required: ['keys'],
  },
  Health: {
    type: 'object',
    properties: {
      status: { type: 'string', enum: ['ok', 'degraded'] },
      sidecar: { type: 'string', enum: ['connected', 'unavailable'], description: 'Connection state.' },
      version: {
        type: 'string',
        description: 'Platform version (Semantic Versioning).',
        examples: ['0.9.0'],
      },
    },
    required: ['status', 'sidecar', 'version'],
  },
  Me: {
    type: 'object',
    description: 'The caller as the sidecar sees its token; `tenant` and `roles` for user tokens only.',
    properties: {
      sub: { type: 'string' },
      client_id: { type: 'string' },
      scope: SPACE_SEPARATED_SCOPES,
      tenant: { type: 'string' },
      roles: { type: 'array', items: ROLE_NAME },
      exp: { type: 'integer', description: 'Unix seconds.' },
    },
    required: ['sub', 'client_id', 'scope', 'exp'],
  },
  Ping: {
    type: 'object',
    properties: { ok: { type: 'boolean', const: true } },
    required: ['ok'],
  },
  AuthorizationServerMetadata: {
    type: 'object',
    description: 'RFC 8414 metadata; every URL is under the issuer.',
    properties: {
      issuer: { type: 'string', format: 'uri' },
      authorization_endpoint: { type: 'string', format: 'uri' },
      token_endpoint: { type: 'string', format: 'uri' },
      jwks_uri: { type: 'string', format: 'uri' },
      introspection_endpoint: { type: 'string', format: 'uri' },
      revocation_endpoint: { type: 'string', format: 'uri' },
      scopes_supported: { type: 'array', items: { type: 'string' } },
      response_types_supported: { type: 'array', items: { type: 'string', const: 'code' } },
      response_modes_supported: { type: 'array', items: { type: 'string', const: 'query' } },
      grant_types_supported: { type: 'array', items: { type: 'string' } },
      token_endpoint_auth_methods_supported: { type: 'array', items: { type: 'string' } },
      introspection_endpoint_auth_methods_supported: { type: 'array', items: { type: 'string' } },
      revocation_endpoint_auth_methods_supported: { type: 'array', items: { type: 'string' } },
      code_challenge_methods_supported: { type: 'array', items: { type: 'string', const: 'S256' } },
      authorization_response_iss_parameter_supported: { type: 'boolean' },
    },
    required: [
      'issuer',
      'authorization_endpoint',
      'token_endpoint',
      'jwks_uri',
      'introspection_endpoint',
      'revocation_endpoint',
      'response_types_supported',
      'grant_types_supported',
      'code_challenge_methods_supported',
    ],
  },
  AppType: {
    type: 'string',
    enum: [...APP_TYPES],
    description:
      '`service`: client_credentials; `web`: authorization_code + refresh_token; `spa`: authorization_code + PKCE, no secret; `cli`: authorization_code + PKCE.',
  },
  ApplicationRegistration: {
    type: 'object',
    properties: {
      client_id: CLIENT_ID,
      name: { type: 'string', minLength: 1, maxLength: 200 },
      declared_scopes: {
        type: 'array',
        minItems: 1,
        items: SCOPE_NAME,
        description:
          'Standard scopes, custom ones (`POST /api/v1/scopes`) or names covered by a defined wildcard; anything else is refused (400).',
      },
      app_type: schemaRef('AppType'),
      redirect_uris: {
        type: 'array',
        items: { type: 'string', format: 'uri', maxLength: 2000 },
        description:
          'Required for `web`, `spa`, `cli`, refused for `service`. `https`, `http` on loopback hosts only (RFC 8252 7.3), or a private-use reverse-domain scheme (7.1); never a fragment. Matched exactly.',
      },
    },
    required: ['client_id', 'name', 'declared_scopes', 'app_type'],
    examples: [
      {
        client_id: 'billing-worker',
        name: 'Billing worker',
        declared_scopes: ['jobs.*', 'files.read'],
        app_type: 'service',
      },
    ],
  },
  Application: {
    type: 'object',
    description:
      'An application as the registry shows it: never a secret or its hash. This is also the item of the app listing (the specification leaves it "not shown").',
    properties: {
      client_id: CLIENT_ID,
      name: { type: 'string' },
      declared_scopes: { type: 'array', items: SCOPE_NAME },
      app_type: schemaRef('AppType'),
      redirect_uris: { type: 'array', items: { type: 'string', format: 'uri' } },
      created_at: timestamp('ISO 8601 UTC.'),
      rotated_at: {
        type: ['string', 'null'],
        format: 'date-time',
        description: 'Last secret rotation, or null.',
      },
    },
    required: [
      'client_id',
      'name',
      'declared_scopes',
      'app_type',
      'redirect_uris',
      'created_at',
      'rotated_at',
    ],
  },
  RegisteredApplication: {
    description: 'The new application, with its secret: shown this once (absent for `spa`, which has none).',
    allOf: [
      schemaRef('Application'),
      {
        type: 'object',
        properties: {
          client_secret: {
            type: 'string',
            description: '256 random bits, base64url (43 characters). Stored only as an argon2id hash.',
          },
        },
      },
    ],
  },
  RotatedSecret: {
    type: 'object',
    description: 'The new secret, shown once; the old one stopped working at this moment.',
    properties: {
      client_id: { type: 'string' },
      client_secret: { type: 'string' },
      rotated_at: timestamp('ISO 8601 UTC.'),
    },
    required: ['client_id', 'client_secret', 'rotated_at'],
  },
  ScopeDefinition: {
    type: 'object',
    description: 'A custom scope (the specification leaves the body "not shown").',
    properties: {
      name: {
        type: 'string',
        maxLength: 128,
        description: '`resource.action` in lower case; not a standard scope, not already defined.',
        examples: ['reports.export'],
      },
      description: { type: 'string', minLength: 1, maxLength: 500, examples: ['Export reports'] },
    },
    required: ['name', 'description'],
  },
  DefinedScope: {
    type: 'object',
    properties: {
      name: { type: 'string' },
      description: { type: 'string' },
      created_at: timestamp('ISO 8601 UTC.'),
    },
    required: ['name', 'description', 'created_at'],
  },
  Scope: {
    type: 'object',
    description: `A scope of the listing: standard (\`standard: true\`, \`created_at: null\`) or custom. The standard scopes: ${STANDARD_SCOPES.map((scope) => `\`${scope.name}\` (${scope.description})`).join(', ')}.`,
    properties: {
      name: { type: 'string' },
      description: { type: 'string' },
      standard: { type: 'boolean' },
      created_at: { type: ['string', 'null'], format: 'date-time' },
    },
    required: ['name', 'description', 'standard', 'created_at'],
  },
  TokenEvent: {
    type: 'object',
    properties: {
      id: { type: 'integer', description: 'Increasing cursor.' },
      type: { type: 'string', enum: TOKEN_EVENT_TYPES },
      client_id: { type: 'string' },
      subject: { type: ['string', 'null'], description: 'The user or, for service tokens, the client.' },
      jti: { type: ['string', 'null'] },
      grant_id: { type: ['string', 'null'] },
      occurred_at: timestamp('ISO 8601 UTC.'),
    },
    required: ['id', 'type', 'client_id', 'subject', 'jti', 'grant_id', 'occurred_at'],
  },
  TokenEventPage: {
    type: 'object',
    description: 'One page of the stream, oldest first. Pass `next_after` back as `after` to continue.',
    properties: {
      events: { type: 'array', items: schemaRef('TokenEvent') },
      next_after: {
        type: 'integer',
        description: 'The id of the last event of the page (or the `after` given when the page is empty).',
      },
    },
    required: ['events', 'next_after'],
  },
  RotatedSigningKey: {
    type: 'object',
    properties: { kid: { type: 'string' }, created_at: timestamp('ISO 8601 UTC.') },
    required: ['kid', 'created_at'],
  },
  ConsentDecision: {
    type: 'object',
    description:
      'The consent form: the authorization request parameters (as on `GET /oauth/authorize`), the CSRF token of the page, and the button pressed.',
    properties: {
      client_id: { type: 'string' },
      response_type: { type: 'string', const: 'code' },
      redirect_uri: { type: 'string', format: 'uri' },
      scope: SPACE_SEPARATED_SCOPES,
      code_challenge: { type: 'string' },
      code_challenge_method: { type: 'string', const: 'S256' },
      state: { type: 'string' },
      csrf_token: { type: 'string', description: 'HMAC of the browser session, from the consent page.' },
      decision: { type: 'string', enum: ['approve', 'deny'] },
    },
    required: ['client_id', 'redirect_uri', 'csrf_token', 'decision'],
  },
  LogoutForm: {
    type: 'object',
    properties: {
      csrf_token: { type: 'string', description: 'Required whenever a session cookie is sent.' },
      return_to: { type: 'string', description: 'A path on this server to go to afterwards.' },
    },
  },
  CodeExchangeRequest: {
    type: 'object',
    properties: {
      code: { type: 'string', description: 'The one-time code of the login callback (60 s, single use).' },
    },
    required: ['code'],
  },
  AppRefreshRequest: {
    type: 'object',
    properties: { refreshToken: { type: 'string' } },
    required: ['refreshToken'],
  },
  AppTokens: {
    type: 'object',
    description:
      'The login family’s token answer (camelCase, as the specification names `accessToken` and `refreshToken`). Sent with `Cache-Control: no-store`.',
    properties: {
      accessToken: { type: 'string', description: 'An RS256 JWT access token of the user.' },
      refreshToken: { type: 'string', description: 'Opaque, rotating, 30 days.' },
      tokenType: { type: 'string', const: 'Bearer' },
      expiresIn: { type: 'integer', const: 3600 },
      scope: SPACE_SEPARATED_SCOPES,
    },
    required: ['accessToken', 'refreshToken', 'tokenType', 'expiresIn', 'scope'],
  },
  ValidateRequest: {
    type: 'object',
    properties: { token: { type: 'string', description: 'The access token to judge.' } },
    required: ['token'],
  },
  TokenValidation: {
    description:
      'The sidecar’s judgement of a token (signature, expiry, deny-list, app still registered). An invalid token is not an error: `{"active": false}`.',
    oneOf: [
      {
        type: 'object',
        title: 'active',
        properties: {
          active: { type: 'boolean', const: true },
          sub: { type: 'string' },
          client_id: { type: 'string' },
          scope: SPACE_SEPARATED_SCOPES,
          tenant: { type: 'string', description: 'User tokens only.' },
          roles: { type: 'array', items: ROLE_NAME, description: 'User tokens only.' },
          exp: { type: 'integer', description: 'Unix seconds.' },
        },
        required: ['active', 'sub', 'client_id', 'scope', 'exp'],
      },
      schemaRef('InactiveIntrospection'),
    ],
  },
  ServiceAccountRegistration: {
    type: 'object',
    properties: {
      name: { type: 'string', minLength: 1, maxLength: 200 },
      declared_scopes: {
        type: 'array',
        items: SCOPE_NAME,
        description: 'Optional; the same rules as at `POST /v1/oauth/apps`.',
      },
    },
    required: ['name'],
  },
  ServiceAccount: {
    type: 'object',
    description: 'A `service` app with a generated `client_id`; the secret is shown this once.',
    properties: {
      client_id: CLIENT_ID,
      client_secret: { type: 'string' },
      name: { type: 'string' },
      declared_scopes: { type: 'array', items: SCOPE_NAME },
      app_type: { type: 'string', const: 'service' },
      created_at: timestamp('ISO 8601 UTC.'),
    },
    required: ['client_id', 'client_secret', 'name', 'declared_scopes', 'app_type', 'created_at'],
  },
  User: {
    type: 'object',
    description: 'A user, keyed by (identity provider issuer, subject); the provider is the source of truth.',
    properties: {
      id: { type: 'string' },
      email: { type: ['string', 'null'] },
      name: { type: ['string', 'null'] },
      tenant: { type: 'string' },
      roles: { type: 'array', items: ROLE_NAME },
    },
    required: ['id', 'email', 'name', 'tenant', 'roles'],
  },
  RolesUpdate: {
    type: 'object',
    description: 'The user’s complete new role list. Only a `global_admin` may grant `global_admin`.',
    properties: { roles: { type: 'array', items: ROLE_NAME } },
    required: ['roles'],
  },
};
