import { PLATFORM_VERSION } from '@platform/config';
import { authFamilyPaths } from './auth-family-paths';
import { headers, parameters, responses, securitySchemes } from './components';
import { oauthPaths } from './oauth-paths';
import type { OpenApiDocument, Paths } from './openapi-types';
import { platformPaths } from './platform-paths';
import { registryPaths } from './registry-paths';
import { schemas } from './schemas';
import { userFlowPaths } from './user-flow-paths';

/**
 * Where the specification says "not shown", what we decided (in the spirit of ARCHITECTURE.md:
 * name the RFC real OAuth clients already expect). Each decision is repeated on its operation.
 */
const DECISIONS = `
## Decisions where the specification says "not shown"

- **Error body shape and codes.** OAuth endpoints (token, introspect, revoke, \`/api/v1/auth/token\`): RFC 6749 section 5.2 JSON \`{error, error_description}\`. Bearer-protected routes: RFC 6750 \`WWW-Authenticate: Bearer ...\` challenge with a problem body carrying \`error\`. Everything else: RFC 9457 \`application/problem+json\`; browser routes answer HTML pages. Never a stack trace, SQL or secret.
- **Status codes per condition.** Invalid client credentials: 401 \`invalid_client\` (with \`WWW-Authenticate: Basic realm="oauth"\` when Basic was tried). Undeclared scope: 400 \`invalid_scope\`. Bad \`code_verifier\`: 400 \`invalid_grant\` (the code is burnt). Missing admin token: 401 with a bare \`Bearer realm="oauth"\` challenge; invalid token: 401 \`invalid_token\`; valid token without \`admin.*\`/\`global_admin\`: 403 \`insufficient_scope\`. Unknown app: 404; duplicate: 409; broken registry rule: 400. Sidecar or control plane unreachable: 503 (fail closed).
- **How an admin token is obtained.** A \`client_credentials\` token of an app declaring \`admin.*\` (the bootstrap app \`ADMIN_CLIENT_ID\`, default \`admin\`), or a user token with the \`global_admin\` role.
- **Item shape of the app listing.** \`Application\`: \`{client_id, name, declared_scopes, app_type, redirect_uris, created_at, rotated_at}\`, never a secret or hash; \`limit\` (1-1000, default 100), cursor \`after\`, RFC 8288 \`Link: <...>; rel="next"\`.
- **Lifecycle of an application.** Registered, then deleted (final; its tokens die at once). No suspended state.
- **Scope definition (\`POST /api/v1/scopes\`).** JSON \`{name, description}\` -> 201 \`{name, description, created_at}\`; standard or existing name 409.
- **Token event stream (\`GET /api/v1/token-events\`).** JSON over HTTP, cursor-paged: \`after\`, \`limit\`, \`client_id\` -> \`{events: [{id, type, client_id, subject, jti, grant_id, occurred_at}], next_after}\`.
- **Login family bodies.** Code exchange \`POST /api/v1/auth/exchange\` \`{code}\` and refresh \`POST /api/v1/auth/refresh\` \`{refreshToken}\` -> \`{accessToken, refreshToken, tokenType, expiresIn, scope}\`; validate (\`GET ?token=\` or \`POST {token}\`) -> \`{active: true, sub, client_id, scope, tenant?, roles?, exp}\` or \`{active: false}\`.
- **Service accounts.** Register \`{name, declared_scopes?}\` -> 201 \`{client_id, client_secret, name, declared_scopes, app_type: "service", created_at}\` (generated \`client_id\`); credentials rotate -> 200 \`{client_id, client_secret, rotated_at}\`.
- **Health credential.** None (load balancers probe it); 503 when the sidecar is not serving.
- **Access token claims** beyond introspection: \`tenant\`, \`roles\`, \`grant_id\` for user tokens; header \`typ: at+jwt\`, \`kid\` = RFC 7638 thumbprint.
- **Refresh token lifetime.** 30 days, rotating on every use; reuse of a rotated one revokes the grant.
- **Limits.** Request bodies up to 64 KiB (413; \`invalid_request\` on OAuth endpoints). No REST rate limit in this version.
`;

const DESCRIPTION = `
The public REST surface of the OAuth 2.0 platform (token issuance, authorization code with PKCE, introspection, revocation, application registry, key set, health, login and the user-forwarding model). Requests to the token, introspection and revocation endpoints are \`application/x-www-form-urlencoded\`; the registry takes \`application/json\`. Every answer carries \`x-request-id\` (the caller's, when it is a plain token, or a fresh one).
${DECISIONS}`.trim();

export interface OpenApiOptions {
  /** The configured ISSUER: the base URL of every path. */
  issuer: string;
  /** Defaults to the platform version. */
  version?: string;
}

/** The OpenAPI 3.1 document of the backend's public surface. */
export function openApiDocument({ issuer, version = PLATFORM_VERSION }: OpenApiOptions): OpenApiDocument {
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    info: {
      title: 'OAuth platform: token issuance and application registry',
      version,
      description: DESCRIPTION,
      license: { name: 'UNLICENSED' },
    },
    servers: [{ url: issuer, description: 'The configured ISSUER.' }],
    tags: [
      { name: 'OAuth', description: 'RFC 6749 token, RFC 7662 introspection, RFC 7009 revocation.' },
      { name: 'Keys and discovery', description: 'Key set, RFC 8414 metadata, signing-key rotation.' },
      { name: 'Registry', description: 'Applications (admin Bearer token).' },
      { name: 'Scopes', description: 'Standard and custom scopes (admin Bearer token).' },
      { name: 'Events', description: 'The token event stream (admin Bearer token).' },
      { name: 'Service accounts', description: 'Headless `service` apps (admin Bearer token).' },
      { name: 'Tenant users', description: 'User administration, decided per tenant by the policy engine.' },
      { name: 'User login and consent', description: 'Browser routes: server-rendered pages and redirects.' },
      {
        name: 'App login family',
        description: 'Login, refresh, validation and revocation for apps of the user-forwarding model.',
      },
      { name: 'Platform', description: 'Health, the caller, and this documentation.' },
    ],
    paths: mergePaths(oauthPaths, registryPaths, userFlowPaths, authFamilyPaths, platformPaths),
    components: { schemas, responses, parameters, headers, securitySchemes },
  };
}

/** The areas' paths in one object; a path defined by two areas is a programming error. */
function mergePaths(...areas: Paths[]): Paths {
  const merged: Paths = {};
  for (const area of areas) {
    for (const [path, item] of Object.entries(area)) {
      if (path in merged) throw new Error(`OpenAPI path ${path} is defined twice`);
      merged[path] = item;
    }
  }
  return merged;
}
