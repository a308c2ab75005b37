import { FORM, headerRef, htmlPage, redirect, responseRef, schemaRef } from './components';
import type { OperationObject, ParameterObject, Paths, SecurityRequirement } from './openapi-types';

/** Optional: without a session the browser is sent to log in first. */
const SESSION_OPTIONAL: SecurityRequirement[] = [{ sessionCookie: [] }, {}];

const query = (name: string, description: string, extra: Partial<ParameterObject> = {}): ParameterObject => ({
  name,
  in: 'query',
  description,
  schema: { type: 'string' },
  ...extra,
});

const AUTHORIZATION_PARAMETERS: ParameterObject[] = [
  query('client_id', 'The registered client.', { required: true }),
  query('response_type', 'Only `code`.', { required: true, schema: { type: 'string', const: 'code' } }),
  query('redirect_uri', 'Exactly one of the app’s registered redirect URIs.', {
    required: true,
    schema: { type: 'string', format: 'uri' },
  }),
  query('scope', 'Space-separated; omitted means every declared scope.'),
  query('code_challenge', 'base64url(SHA-256(code_verifier)); required (PKCE).', { required: true }),
  query('code_challenge_method', 'Only `S256`.', {
    required: true,
    schema: { type: 'string', const: 'S256' },
  }),
  query('state', 'Anti-forgery value, echoed to the redirect URI.'),
];

const NO_STORE_REDIRECT = { 'Cache-Control': headerRef('CacheControlNoStore') };

const authorize: OperationObject = {
  operationId: 'authorize',
  summary: 'Authorization endpoint (RFC 6749 section 3.1)',
  tags: ['User login and consent'],
  description: [
    'A browser redirect. The client, the exact redirect URI, `response_type`, PKCE and the scopes are checked before anyone is asked to log in.',
    '- Unknown client, unregistered redirect URI (or a `service` app), or `client_id`/`redirect_uri` repeated: **400** error page; the browser is never redirected.',
    '- Any other fault (`unsupported_response_type`, missing or non-S256 challenge as `invalid_request`, undeclared scope as `invalid_scope`, `unauthorized_client`): **302** to `redirect_uri` with `error`, `error_description` and `state`.',
    '- No valid session: **302** to `/auth/login?return_to=<this request>`.',
    '- Otherwise: **200** the consent page with buttons "Approve" and "Deny" (posting to `/oauth/authorize/decision`).',
  ].join('\n'),
  security: SESSION_OPTIONAL,
  parameters: AUTHORIZATION_PARAMETERS,
  responses: {
    '200': htmlPage('The consent page.', NO_STORE_REDIRECT),
    '302': redirect('To the login, or back to the client with an error.', {
      ...NO_STORE_REDIRECT,
      'Set-Cookie': headerRef('SetCookie'),
    }),
    '400': responseRef('HtmlBadRequest'),
    '500': responseRef('HtmlServerError'),
    '503': responseRef('HtmlUnavailable'),
  },
};

const decision: OperationObject = {
  operationId: 'authorizeDecision',
  summary: 'The consent form’s answer',
  tags: ['User login and consent'],
  description:
    'Posted by the consent page (session cookie plus its CSRF token). **303** (the browser follows with a GET and never re-posts) to `redirect_uri` with `code` and `state` on approval or `error=access_denied` and `state` on denial; **303** to the login when the session expired meanwhile. A missing or foreign CSRF token: **403** page, nothing authorized; a `decision` other than approve/deny: **400** page.',
  security: [{ sessionCookie: [] }],
  requestBody: { required: true, content: { [FORM]: { schema: schemaRef('ConsentDecision') } } },
  responses: {
    '303': redirect('Back to the client (code or access_denied), or to the login.', {
      ...NO_STORE_REDIRECT,
      'Set-Cookie': headerRef('SetCookie'),
    }),
    '400': responseRef('HtmlBadRequest'),
    '403': responseRef('HtmlForbidden'),
    '413': responseRef('PayloadTooLarge'),
    '415': responseRef('HtmlUnsupportedMediaType'),
    '500': responseRef('HtmlServerError'),
    '503': responseRef('HtmlUnavailable'),
  },
};

const login: OperationObject = {
  operationId: 'browserLogin',
  summary: 'Browser sign-in through the identity provider',
  tags: ['User login and consent'],
  description:
    'Starts the OpenID Connect login (authorization code with PKCE, state and nonce sealed in a short-lived cookie) and **302**s to the identity provider. `return_to` must be a path on this server (default `/`), such as `/oauth/authorize?...`; anything else is a **400** page, never followed. No identity provider configured or reachable: **503** page.',
  security: [],
  parameters: [query('return_to', 'A path on this server to come back to after sign-in.')],
  responses: {
    '302': redirect('To the identity provider.', {
      ...NO_STORE_REDIRECT,
      'Set-Cookie': headerRef('SetCookie'),
    }),
    '400': responseRef('HtmlBadRequest'),
    '500': responseRef('HtmlServerError'),
    '503': responseRef('HtmlUnavailable'),
  },
};

const callback: OperationObject = {
  operationId: 'oidcCallback',
  summary: 'The identity provider’s callback',
  tags: ['User login and consent'],
  description:
    'Where the identity provider sends the browser back (`{ISSUER}/auth/oidc/callback`). The backend exchanges the provider’s code server-side, opens a session (cookie, 8 hours) and **302**s to the `return_to` of the login. For the app login family (`/api/v1/auth/oidc/login`) it **302**s instead to the app’s `return_to` with a one-time `code` (60 s); the token never appears in a browser URL. An expired or foreign login transaction, or an answer that cannot be verified: **400** page; the provider refused the sign-in: **403** page.',
  security: [],
  parameters: [
    query('code', 'The identity provider’s authorization code.'),
    query('state', 'The login transaction’s state.'),
    query('iss', 'The identity provider’s issuer (RFC 9207), when it sends one.'),
    query('error', 'The identity provider’s error, when it refused.'),
    query('error_description', 'Its description.'),
  ],
  responses: {
    '302': redirect('Signed in: to `return_to` (or to the app with a one-time code).', {
      ...NO_STORE_REDIRECT,
      'Set-Cookie': headerRef('SetCookie'),
    }),
    '400': responseRef('HtmlBadRequest'),
    '403': responseRef('HtmlForbidden'),
    '500': responseRef('HtmlServerError'),
    '503': responseRef('HtmlUnavailable'),
  },
};

const logout: OperationObject = {
  operationId: 'browserLogout',
  summary: 'Browser sign-out',
  tags: ['User login and consent'],
  description:
    'Ends the browser session (form post with the page’s `csrf_token`; a session cookie without it is a **403** page) and clears the cookie. With a `return_to` path: **303** there; otherwise **200** a signed-out page. Without a session it just answers.',
  security: SESSION_OPTIONAL,
  requestBody: { required: true, content: { [FORM]: { schema: schemaRef('LogoutForm') } } },
  responses: {
    '200': htmlPage('Signed out.', { 'Set-Cookie': headerRef('SetCookie') }),
    '303': redirect('To `return_to`.', { 'Set-Cookie': headerRef('SetCookie') }),
    '403': responseRef('HtmlForbidden'),
    '413': responseRef('PayloadTooLarge'),
    '415': responseRef('HtmlUnsupportedMediaType'),
    '500': responseRef('HtmlServerError'),
    '503': responseRef('HtmlUnavailable'),
  },
};

export const userFlowPaths: Paths = {
  '/oauth/authorize': { get: authorize },
  '/oauth/authorize/decision': { post: decision },
  '/auth/login': { get: login },
  '/auth/oidc/callback': { get: callback },
  '/auth/logout': { post: logout },
};
