import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { FEDERATION_LIMITS, WEBHOOK_URL_MAX_LENGTH } from '@platform/domain';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsObject,
  IsOptional,
  IsString,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { ClientIdProperty, ScopeNamesProperty, TimestampProperty } from './fields';
import { operation } from './operation-table';

/** Shapes only; the registry decides what a valid issuer, rule, app and scope are (docs/workload-identity.md). */

@ApiSchema({
  name: 'FederationRule',
  description:
    'Which tokens of the issuer get a platform token, for which app and scopes. All conditions must hold: `aud` holds `audience`, `sub` is `subject` (when given), and every `claims` member is exactly that string. A rule names a `subject` or at least one claim: the audience alone is refused.',
})
export class FederationRuleDto {
  @ApiProperty({
    pattern: '^[A-Za-z0-9._-]{1,64}$',
    description: 'Unique within the issuer; the audit record names it.',
  })
  @IsString()
  @MaxLength(64)
  name: string;

  @ApiProperty({
    maxLength: FEDERATION_LIMITS.valueLength,
    description:
      'A value the token’s `aud` must hold (a Kubernetes projected token’s `audience`, a CI token’s requested audience).',
    example: 'https://platform.example.com',
  })
  @IsString()
  @MaxLength(FEDERATION_LIMITS.valueLength)
  audience: string;

  @ApiPropertyOptional({
    maxLength: FEDERATION_LIMITS.valueLength,
    description:
      'The exact `sub` (`system:serviceaccount:<namespace>:<name>`, `repo:<owner>/<repo>:ref:<ref>`).',
  })
  @IsOptional()
  @IsString()
  @MaxLength(FEDERATION_LIMITS.valueLength)
  subject?: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    description: `Up to ${FEDERATION_LIMITS.claimConditions} exact matches: a top-level claim by name (\`repository\`, \`ref\`) or a nested one by JSON Pointer (\`/kubernetes.io/namespace\`, \`/kubernetes.io/serviceaccount/name\`). \`iss\`, \`aud\`, \`sub\`, \`exp\`, \`nbf\`, \`iat\` and \`jti\` cannot be conditions.`,
    example: { '/kubernetes.io/namespace': 'payments', '/kubernetes.io/serviceaccount/name': 'ledger' },
  })
  @IsObject()
  claims: Record<string, string>;

  @ClientIdProperty({ description: 'A `service` app bound to the tenant.' })
  @IsString()
  @MaxLength(64)
  client_id: string;

  @ScopeNamesProperty({ description: 'What the platform token may carry: among the app’s declared scopes.' })
  @IsArray()
  @IsString({ each: true })
  @MaxLength(128, { each: true })
  scopes: string[];
}

@ApiSchema({
  name: 'FederatedIssuerRegistration',
  description: 'A token issuer the tenant trusts, and its rules.',
})
export class RegisterFederatedIssuerDto {
  @ApiProperty({
    format: 'uri',
    maxLength: FEDERATION_LIMITS.issuerLength,
    description:
      'The exact `iss` of its tokens. `https` to a public address in production (the webhooks’ rules; a cluster-internal issuer needs `WEBHOOK_ALLOW_PRIVATE_URLS`).',
    example: 'https://token.actions.githubusercontent.com',
  })
  @IsString()
  @MaxLength(FEDERATION_LIMITS.issuerLength)
  issuer: string;

  @JwksUriInput()
  jwks_uri?: string | null;

  @RulesInput()
  rules: FederationRuleDto[];
}

@ApiSchema({
  name: 'FederatedIssuerUpdate',
  description:
    'Replaces the key location and the rules (the issuer itself stays: register another for another).',
})
export class UpdateFederatedIssuerDto {
  @JwksUriInput()
  jwks_uri?: string | null;

  @RulesInput()
  rules: FederationRuleDto[];
}

@ApiSchema({ name: 'FederatedIssuer', description: 'A trusted issuer of a tenant, as stored.' })
export class FederatedIssuerDto {
  @ApiProperty({ example: 'fi_3q2Yx0bWc1l9mJkP' }) id: string;
  @ApiProperty() tenant: string;
  @ApiProperty({ format: 'uri' }) issuer: string;
  @JwksUriProperty({ required: true }) jwks_uri: string | null;
  @ApiProperty({ type: [FederationRuleDto] }) rules: FederationRuleDto[];
  @TimestampProperty() created_at: string;
  @TimestampProperty() updated_at: string;
}

function JwksUriProperty(options: { required?: boolean } = {}) {
  return ApiProperty({
    required: options.required ?? false,
    type: 'string',
    nullable: true,
    format: 'uri',
    maxLength: WEBHOOK_URL_MAX_LENGTH,
    description:
      'Where the issuer’s keys are. Null or omitted: OpenID Connect discovery (`<issuer>/.well-known/openid-configuration`, whose `issuer` must be the issuer). Fetched under the webhooks’ rules, cached, fetched again on an unknown `kid` at most every 30 s.',
  });
}

/** The key location a registration or an update takes: documented and checked. */
function JwksUriInput() {
  return applyDecorators(JwksUriProperty(), IsOptional(), IsString(), MaxLength(WEBHOOK_URL_MAX_LENGTH));
}

/** The rules a registration or an update takes: documented and checked, each rule nested. */
function RulesInput() {
  return applyDecorators(
    RulesProperty(),
    IsArray(),
    ArrayMinSize(1),
    ArrayMaxSize(FEDERATION_LIMITS.rules),
    ValidateNested({ each: true }),
    Type(() => FederationRuleDto),
  );
}

function RulesProperty() {
  return ApiProperty({
    type: [FederationRuleDto],
    minItems: 1,
    maxItems: FEDERATION_LIMITS.rules,
    description:
      'Names unique; a token matching no rule, or more than one (`client_id` in the request picks among them), is refused.',
  });
}

const ISSUERS_PATH = 'api/v1/tenants/:tenant/federated-issuers';
const INTERNAL_ISSUERS_PATH = 'internal/v1/tenants/:tenant/federated-issuers';
const TENANT = { tenant: { example: 'acme' } };
const ISSUER_OF_TENANT = { ...TENANT, id: { description: 'The issuer registration’s id.' } };
const READ = { kind: 'permission', action: 'federation.read', tenantParam: 'tenant' } as const;
const WRITE = { kind: 'permission', action: 'federation.write', tenantParam: 'tenant' } as const;
const NO_ISSUER = 'The tenant has no such issuer registration.';

/**
 * Workload identity federation (docs/workload-identity.md): the issuers a tenant trusts and the
 * rules mapping their tokens to the tenant's apps, for a tenant administrator (`federation.*` in
 * its tenant) or a platform administrator.
 */
export const FEDERATION_OPERATIONS = {
  register: operation({
    id: 'registerFederatedIssuer',
    tag: 'Workload identity',
    summary: 'Trust a workload token issuer',
    description:
      'Permission `federation.write` on `{tenant}`. Registers an issuer (a Kubernetes cluster’s service-account issuer, a CI system’s OIDC issuer) with rules mapping its tokens to `service` apps bound to the tenant: a workload then trades its own token for a platform token at `POST /v1/oauth/token` (`grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer`). A rule broken (URL rules, no subject or claim, an app of another tenant or type, a scope the app does not declare): **400**; the tenant already trusts the issuer: **409**. Audited (`federation.issuer_registered`).',
    method: 'POST',
    path: ISSUERS_PATH,
    internal: INTERNAL_ISSUERS_PATH,
    caller: WRITE,
    params: TENANT,
    body: { type: 'json', model: RegisterFederatedIssuerDto },
    answer: { status: 201, model: FederatedIssuerDto, description: 'Registered.' },
    refuses: { 409: 'The tenant already trusts this issuer.' },
  }),
  list: operation({
    id: 'listFederatedIssuers',
    tag: 'Workload identity',
    summary: 'The issuers a tenant trusts',
    description: 'Permission `federation.read` on `{tenant}`. Ordered by issuer.',
    method: 'GET',
    path: ISSUERS_PATH,
    internal: INTERNAL_ISSUERS_PATH,
    caller: READ,
    params: TENANT,
    answer: { status: 200, model: [FederatedIssuerDto], description: 'The tenant’s issuers.' },
  }),
  get: operation({
    id: 'getFederatedIssuer',
    tag: 'Workload identity',
    summary: 'One trusted issuer',
    description: 'Permission `federation.read` on `{tenant}`.',
    method: 'GET',
    path: `${ISSUERS_PATH}/:id`,
    internal: `${INTERNAL_ISSUERS_PATH}/:id`,
    caller: READ,
    params: ISSUER_OF_TENANT,
    answer: { status: 200, model: FederatedIssuerDto, description: 'The issuer and its rules.' },
    refuses: { 404: NO_ISSUER },
  }),
  update: operation({
    id: 'updateFederatedIssuer',
    tag: 'Workload identity',
    summary: 'Replace a trusted issuer’s rules',
    description:
      'Permission `federation.write` on `{tenant}`. Replaces `jwks_uri` and `rules` for the exchanges that come after. Audited (`federation.issuer_updated`).',
    method: 'PUT',
    path: `${ISSUERS_PATH}/:id`,
    internal: `${INTERNAL_ISSUERS_PATH}/:id`,
    caller: WRITE,
    params: ISSUER_OF_TENANT,
    body: { type: 'json', model: UpdateFederatedIssuerDto },
    answer: { status: 200, model: FederatedIssuerDto, description: 'The issuer as changed.' },
    refuses: { 404: NO_ISSUER },
  }),
  delete: operation({
    id: 'deleteFederatedIssuer',
    tag: 'Workload identity',
    summary: 'Stop trusting an issuer',
    description:
      'Permission `federation.write` on `{tenant}`. Its tokens are refused from this moment; platform tokens already issued live on until they expire (revoke them by app). Audited (`federation.issuer_deleted`).',
    method: 'DELETE',
    path: `${ISSUERS_PATH}/:id`,
    internal: `${INTERNAL_ISSUERS_PATH}/:id`,
    caller: WRITE,
    params: ISSUER_OF_TENANT,
    answer: { status: 204, description: 'Removed; no body.' },
    refuses: { 404: NO_ISSUER },
  }),
};
