import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject } from '@nestjs/swagger';
import { PLATFORM_VERSION } from '@platform/config';
import { generateOpenApi } from '@platform/http';

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
- **Login family bodies.** Code exchange \`POST /api/v1/auth/exchange\` \`{code, codeVerifier, clientId, clientSecret?}\` and refresh \`POST /api/v1/auth/refresh\` \`{refreshToken, clientId, clientSecret?}\` -> \`{accessToken, refreshToken, tokenType, expiresIn, scope}\`; validate (\`GET ?token=\` or \`POST {token}\`) -> \`{active: true, sub, client_id, scope, tenant?, roles?, exp}\` or \`{active: false}\`.
- **Service accounts.** Register \`{name, declared_scopes?}\` -> 201 \`{client_id, client_secret, name, declared_scopes, app_type: "service", created_at}\` (generated \`client_id\`); credentials rotate -> 200 \`{client_id, client_secret, rotated_at}\`.
- **Health credential.** None (load balancers probe it); 503 when the sidecar is not serving.
- **Access token claims** beyond introspection: \`tenant\`, \`roles\`, \`grant_id\` for user tokens; \`aud\` the issuer, or the one resource asked for (RFC 8707); \`act\` (the actor chain, RFC 8693) on exchanged tokens and \`impersonation\` (\`full\` or \`read_only\`) on impersonation tokens (docs/tokens.md); header \`typ: at+jwt\`, \`kid\` = RFC 7638 thumbprint.
- **Refresh token lifetime.** 30 days, rotating on every use; reuse of a rotated one revokes the grant.
- **Limits.** Request bodies up to 64 KiB (413; \`invalid_request\` on OAuth endpoints). A body sent as \`application/json\` that is not JSON is refused before any route runs: 400 problem details (\`invalid_request\` on OAuth endpoints). Path parameters up to 256 characters (414). The token, introspection and revocation endpoints are rate-limited per client and address, with a stricter limit on failed client authentications (429, \`Retry-After\`, the IETF \`RateLimit\` fields; docs/rate-limits.md).
`;

const DESCRIPTION = `
The public REST surface of the OAuth 2.0 platform (token issuance, authorization code with PKCE, introspection, revocation, application registry, key set, health, login and the user-forwarding model). Requests to the token, introspection and revocation endpoints are \`application/x-www-form-urlencoded\`; the registry takes \`application/json\`. Every answer carries \`x-request-id\` (the caller's, when it is a plain token, or a fresh one).
${DECISIONS}`.trim();

const TAGS: Array<[string, string]> = [
  ['OAuth', 'RFC 6749 token, RFC 7662 introspection, RFC 7009 revocation.'],
  ['Keys and discovery', 'Key set, RFC 8414 metadata, signing-key rotation.'],
  ['Registry', 'Applications (admin Bearer token).'],
  ['Scopes', 'Standard and custom scopes (admin Bearer token).'],
  ['Events', 'The token event stream (admin Bearer token).'],
  [
    'Audit',
    'The hash-chained audit log: written with `audit.write`, read per tenant with `audit.read` or whole by administrators, verifiable.',
  ],
  [
    'Webhooks',
    'Audit and token events pushed to HTTP endpoints as signed Standard Webhooks messages, with retries, a delivery log and replay (admin Bearer token).',
  ],
  ['Service accounts', 'Headless `service` apps (admin Bearer token).'],
  ['Tenant users', 'User administration, decided per tenant by the policy engine.'],
  [
    'SCIM',
    'SCIM 2.0 provisioning of users and groups (RFC 7643, RFC 7644) for identity providers: `scim.read` / `scim.write` in the caller’s tenant; every answer and error is `application/scim+json`.',
  ],
  [
    'Rate limits',
    'Rules of the sidecar’s rate limit service (CheckRateLimit), per tenant and domain (admin Bearer token).',
  ],
  [
    'Feature flags',
    'flagd flag definitions per tenant, evaluated by the sidecars’ FlagService (admin Bearer token).',
  ],
  [
    'Plans and quotas',
    'Plans (features and quotas), each tenant’s subscription to them (platform administrators), and what a tenant is entitled to and has used (`entitlements.read`, `quotas.read` in its tenant); checked and counted by the sidecars’ EntitlementService and QuotaService (docs/plans.md).',
  ],
  ['Masking', 'Per-tenant settings of the sidecars’ MaskingService (admin Bearer token).'],
  [
    'Jobs',
    'The job queue: submitting and reading jobs per tenant (`jobs.write`, `jobs.read`), and the worker’s side (`jobs.work`): claim under a lease, heartbeat, log, complete (docs/jobs.md).',
  ],
  [
    'Secrets',
    'Versioned secrets per tenant, sealed at rest (envelope encryption), every read audited; also `ResolveSecret` at the sidecar (docs/secrets.md).',
  ],
  [
    'Workload identity',
    'The token issuers a tenant trusts and the rules mapping workloads’ own tokens (Kubernetes, CI) to its apps, for the JWT bearer grant (docs/workload-identity.md).',
  ],
  [
    'SAML sign-in',
    'A tenant’s SAML 2.0 identity provider, registered from its metadata, and the browser sign-in through it: SP-initiated Web Browser SSO and the tenant’s SP metadata (docs/saml.md).',
  ],
  ['User login and consent', 'Browser routes: server-rendered pages and redirects.'],
  ['App login family', 'Login, refresh, validation and revocation for apps of the user-forwarding model.'],
  ['Platform', 'Health, the caller, and this documentation.'],
];

/**
 * The OpenAPI 3.1 document of the backend's public surface, generated from its controllers'
 * decorators and the DTOs of @platform/contract.
 */
export function openApiDocument(
  app: INestApplication,
  issuer: string,
  version = PLATFORM_VERSION,
): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setTitle('OAuth platform: token issuance and application registry')
    .setDescription(DESCRIPTION)
    .setVersion(version)
    .addServer(issuer, 'The configured ISSUER.')
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'JWT',
        description:
          'An access token of this platform (RFC 9068 JWT), validated by the backend’s sidecar on every request. **Admin token** (the specification leaves how to obtain one "not shown"): a `client_credentials` token of an app declaring `admin.*` (at first start the bootstrap app `ADMIN_CLIENT_ID`, default `admin`, whose secret is `ADMIN_CLIENT_SECRET` or `DATA_DIR/admin-credentials.json`), or a user token with the `global_admin` role.',
      },
      'bearerAuth',
    )
    .addBasicAuth(
      {
        type: 'http',
        scheme: 'basic',
        description:
          'OAuth client authentication `client_secret_basic` (RFC 6749 section 2.3.1): `client_id:client_secret`, each form-encoded. The alternative `client_secret_post` sends `client_id` and `client_secret` in the form body instead (described in each request body); using both at once is `invalid_request`.',
      },
      'clientSecretBasic',
    )
    .addCookieAuth(
      '__Host-session',
      {
        type: 'apiKey',
        in: 'cookie',
        description:
          'The browser session set by the login callback (`session` instead of `__Host-session` over plain HTTP in development): opaque, HttpOnly, SameSite=Lax, 8 hours. Every cookie-authenticated POST also needs the page’s `csrf_token`.',
      },
      'sessionCookie',
    );
  for (const [name, description] of TAGS) builder.addTag(name, description);
  const document = generateOpenApi(app, builder);
  return { ...document, info: { ...document.info, license: LICENSE }, webhooks: WEBHOOKS };
}

/**
 * The repository's LICENSE, by its SPDX identifier (OpenAPI 3.1; `identifier` excludes `url`),
 * which DocumentBuilder's `setLicense` cannot write.
 */
const LICENSE = { name: 'Apache-2.0', identifier: 'Apache-2.0' };

/** What the platform POSTs to a registered endpoint (OpenAPI 3.1 `webhooks`). */
const WEBHOOKS: OpenAPIObject['webhooks'] = {
  auditRecord: {
    post: {
      summary: 'An audit or token event',
      description:
        'Sent to each endpoint whose event types and tenant match the record. Verify `webhook-signature` over `webhook-id.webhook-timestamp.body` with the endpoint’s secret (any Standard Webhooks library does), refuse a timestamp more than 5 minutes off, and deduplicate on `webhook-id`. Answer 2xx within the timeout (`WEBHOOK_TIMEOUT_MS`, 15 s); anything else is retried.',
      parameters: [
        { name: 'webhook-id', in: 'header', required: true, schema: { type: 'string' }, example: 'msg_42' },
        {
          name: 'webhook-timestamp',
          in: 'header',
          required: true,
          schema: { type: 'string' },
          description: 'Unix seconds.',
        },
        {
          name: 'webhook-signature',
          in: 'header',
          required: true,
          schema: { type: 'string' },
          description: '`v1,<base64 HMAC-SHA256>`, one per active secret, space separated.',
        },
      ],
      requestBody: {
        required: true,
        content: { 'application/json': { schema: { $ref: '#/components/schemas/WebhookMessage' } } },
      },
      responses: {
        '2XX': { description: 'Received.' },
        default: { description: 'Not received: the delivery is retried on the schedule.' },
      },
    },
  },
};
