import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { SAML_LIMITS, SAML_MAPPABLE_ROLES, SAML_MAX_DOCUMENT_BYTES } from '@platform/domain';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsObject,
  IsOptional,
  IsString,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { TimestampProperty } from './fields';
import { OpenedSessionDto } from './login';
import { operation } from './operation-table';

/** Shapes only; the registry decides what valid metadata and mappings are (docs/saml.md). */

/** The metadata travels in a JSON body under the relay's 64 KiB limit. */
export const SAML_METADATA_MAX_LENGTH = 60 * 1024;

/**
 * The ACS's form, and the SAMLResponse the backend hands over: twice the base64 of the largest
 * document taken, so that a document past that size still reaches the control plane, which refuses
 * it (`too_large`) and audits the refusal; a larger form is a 413 before any route runs.
 */
export const SAML_RESPONSE_MAX_LENGTH = 2 * (Math.ceil((SAML_MAX_DOCUMENT_BYTES * 4) / 3) + 4096);

/** An optional list of attribute names: documented and checked by one decorator, for each field. */
const AttributeNames = (field: string, defaults: string) =>
  applyDecorators(
    ApiPropertyOptional({
      type: [String],
      minItems: 1,
      maxItems: SAML_LIMITS.attributeNames,
      description: `Attribute \`Name\`s read for ${field}, the first present wins. Default: ${defaults}.`,
    }),
    IsOptional(),
    IsArray(),
    ArrayMinSize(1),
    ArrayMaxSize(SAML_LIMITS.attributeNames),
    IsString({ each: true }),
    MaxLength(SAML_LIMITS.attributeNameLength, { each: true }),
  );

@ApiSchema({
  name: 'SamlAttributeMapping',
  description:
    'Which assertion attributes give the user’s email, name and groups. A field left out keeps its defaults.',
})
export class SamlAttributeMappingDto {
  @AttributeNames(
    'the email',
    '`email`, `mail`, the `mail` OID, the WS-Federation emailaddress claim; else an emailAddress-format NameID',
  )
  email?: string[];

  @AttributeNames(
    'the display name',
    '`displayName`, `name`, the `displayName` OID, the WS-Federation name claim',
  )
  name?: string[];

  @AttributeNames(
    'the groups (every value of every one present)',
    '`groups`, `memberOf`, the `isMemberOf` OID, the Microsoft groups claim',
  )
  groups?: string[];
}

const ROLE_MAPPING_DESCRIPTION = `Group value -> role: \`${SAML_MAPPABLE_ROLES.join('`, `')}\` (never \`global_admin\`). A sign-in with a groups attribute gets the roles its groups map to, \`user\` when none does; without a groups attribute a known user keeps the roles an admin gave. At most ${SAML_LIMITS.roleMappings} groups.`;

@ApiSchema({
  name: 'SamlIdentityProviderRegistration',
  description: 'The tenant’s IdP, from its SAML metadata, and how its assertions map to users.',
})
export class RegisterSamlIdentityProviderDto {
  @ApiProperty({
    maxLength: SAML_METADATA_MAX_LENGTH,
    description:
      'The IdP’s SAML 2.0 metadata XML: one `EntityDescriptor` with an `IDPSSODescriptor` holding a `SingleSignOnService` for HTTP-Redirect and its signing certificates (RSA, 2048 bits or more; list two during a key rollover). No DTD, no comments.',
  })
  @IsString()
  @MaxLength(SAML_METADATA_MAX_LENGTH)
  metadata_xml: string;

  @ApiPropertyOptional({ type: SamlAttributeMappingDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => SamlAttributeMappingDto)
  attribute_mapping?: SamlAttributeMappingDto;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string', enum: [...SAML_MAPPABLE_ROLES] },
    description: ROLE_MAPPING_DESCRIPTION,
    example: { 'platform-admins': 'tenant_admin', auditors: 'viewer' },
  })
  @IsOptional()
  @IsObject()
  role_mapping?: Record<string, string>;

  @ApiPropertyOptional({
    description: 'Also require the Response to be signed (the assertion always must be). Default false.',
  })
  @IsOptional()
  @IsBoolean()
  want_response_signed?: boolean;

  @ApiPropertyOptional({
    type: 'string',
    nullable: true,
    enum: [
      'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
      'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
      'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified',
    ],
    description:
      'The NameID format the AuthnRequest asks for; null or omitted: the IdP’s choice (never transient: such a sign-in is refused).',
  })
  @IsOptional()
  @IsString()
  @MaxLength(256)
  name_id_format?: string | null;
}

@ApiSchema({ name: 'SamlAttributeMappingStored', description: 'The attribute names in use.' })
export class SamlAttributeMappingStoredDto {
  @ApiProperty({ type: [String] }) email: string[];
  @ApiProperty({ type: [String] }) name: string[];
  @ApiProperty({ type: [String] }) groups: string[];
}

@ApiSchema({
  name: 'SamlServiceProvider',
  description: 'What the IdP is configured with for this tenant (also in the SP metadata).',
})
export class SamlServiceProviderDto {
  @ApiProperty({
    format: 'uri',
    description: 'Our entity id for the tenant, the assertions’ Audience: `{ISSUER}/saml/{tenant}/metadata`.',
  })
  entity_id: string;

  @ApiProperty({
    format: 'uri',
    description: 'The AssertionConsumerService (HTTP-POST): `{ISSUER}/saml/{tenant}/acs`.',
  })
  acs_url: string;

  @ApiProperty({ format: 'uri', description: 'Where a sign-in starts: `{ISSUER}/saml/{tenant}/login`.' })
  login_url: string;

  @ApiProperty({ format: 'uri', description: 'The SP metadata document (the same URL as the entity id).' })
  metadata_url: string;
}

@ApiSchema({ name: 'SamlIdentityProvider', description: 'A tenant’s SAML identity provider, as registered.' })
export class SamlIdentityProviderDto {
  @ApiProperty() tenant: string;
  @ApiProperty({ description: 'The IdP’s entityID: the Issuer its assertions must name.' }) entity_id: string;
  @ApiProperty({ format: 'uri', description: 'Its SingleSignOnService for HTTP-Redirect.' }) sso_url: string;

  @ApiProperty({
    type: [String],
    description: 'Its signing certificates, base64 DER, as the metadata listed them (any one verifies).',
  })
  certificates: string[];

  @ApiProperty({ type: SamlAttributeMappingStoredDto }) attribute_mapping: SamlAttributeMappingStoredDto;

  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string', enum: [...SAML_MAPPABLE_ROLES] },
    description: ROLE_MAPPING_DESCRIPTION,
  })
  role_mapping: Record<string, string>;

  @ApiProperty() want_response_signed: boolean;
  @ApiProperty({ type: 'string', nullable: true }) name_id_format: string | null;
  @ApiProperty({ type: SamlServiceProviderDto }) service_provider: SamlServiceProviderDto;
  @TimestampProperty() created_at: string;
  @TimestampProperty() updated_at: string;
}

const IDP_PATH = 'api/v1/tenants/:tenant/saml/identity-provider';
const INTERNAL_IDP_PATH = 'internal/v1/tenants/:tenant/saml/identity-provider';
const TENANT = { tenant: { example: 'acme' } };
const READ = { kind: 'permission', action: 'saml.read', tenantParam: 'tenant' } as const;
const WRITE = { kind: 'permission', action: 'saml.write', tenantParam: 'tenant' } as const;
const NO_IDP = 'The tenant has no SAML identity provider.';

/**
 * SAML sign-in (docs/saml.md): the identity provider of a tenant, for a tenant administrator
 * (`saml.*` in its tenant) or a platform administrator.
 */
export const SAML_OPERATIONS = {
  put: operation({
    id: 'putSamlIdentityProvider',
    tag: 'SAML sign-in',
    summary: 'Register or replace the tenant’s SAML identity provider',
    description:
      'Permission `saml.write` on `{tenant}`. Reads the IdP’s metadata (entity id, SSO URL for HTTP-Redirect, signing certificates) and stores it with the attribute and role mappings, replacing the registration there was: a key rollover is an upload listing the old and the new certificate, then one listing the new. The tenant’s users then sign in at `{ISSUER}/saml/{tenant}/login`, and its apps may use the SAML bearer grant. Metadata unreadable or without what is needed, a role mapping to another role than `tenant_admin`, `user`, `viewer`: **400**. Audited (`saml.idp_registered`, `saml.idp_updated`).',
    method: 'PUT',
    path: IDP_PATH,
    internal: INTERNAL_IDP_PATH,
    caller: WRITE,
    params: TENANT,
    body: { type: 'json', model: RegisterSamlIdentityProviderDto },
    answer: { status: 200, model: SamlIdentityProviderDto, description: 'Replaced.' },
    otherAnswers: [
      { status: 201, model: SamlIdentityProviderDto, description: 'Registered (there was none).' },
    ],
  }),
  get: operation({
    id: 'getSamlIdentityProvider',
    tag: 'SAML sign-in',
    summary: 'The tenant’s SAML identity provider',
    description: 'Permission `saml.read` on `{tenant}`.',
    method: 'GET',
    path: IDP_PATH,
    internal: INTERNAL_IDP_PATH,
    caller: READ,
    params: TENANT,
    answer: {
      status: 200,
      model: SamlIdentityProviderDto,
      description: 'The registration, and our SP’s names.',
    },
    refuses: { 404: NO_IDP },
  }),
  delete: operation({
    id: 'deleteSamlIdentityProvider',
    tag: 'SAML sign-in',
    summary: 'Remove the tenant’s SAML identity provider',
    description:
      'Permission `saml.write` on `{tenant}`. Its sign-ins and bearer assertions are refused from this moment; sessions and tokens already issued live on (end them by user). Audited (`saml.idp_deleted`).',
    method: 'DELETE',
    path: IDP_PATH,
    internal: INTERNAL_IDP_PATH,
    caller: WRITE,
    params: TENANT,
    answer: { status: 204, description: 'Removed; no body.' },
    refuses: { 404: NO_IDP },
  }),
};

/*
 * The control plane's internal routes of the SAML sign-in: the backend renders the pages and
 * carries the request's ID in a sealed cookie; the control plane builds the AuthnRequest,
 * validates the Response and opens the session.
 */

const INTERNAL = { kind: 'internal' } as const;

export class SamlLoginStartDto {
  @IsString()
  @MaxLength(64)
  tenant: string;
}

export class SamlLoginRedirectDto {
  /** The IdP's SSO URL with the AuthnRequest (HTTP-Redirect binding). */
  redirect_url: string;
  /** The AuthnRequest's ID, which the answer's InResponseTo must be. */
  request_id: string;
}

export class SamlAssertionConsumerDto {
  @IsString()
  @MaxLength(64)
  tenant: string;

  @IsString()
  @MaxLength(SAML_RESPONSE_MAX_LENGTH)
  saml_response: string;

  /** The request this browser left with; absent when it came back without one. */
  @IsOptional()
  @IsString()
  @MaxLength(128)
  request_id?: string;
}

export const INTERNAL_SAML_OPERATIONS = {
  start: operation({
    id: 'startSamlLogin',
    tag: 'Internal',
    summary: 'An AuthnRequest for the tenant’s IdP, stored for its answer',
    method: 'POST',
    path: 'internal/v1/saml/requests',
    caller: INTERNAL,
    body: { type: 'json', model: SamlLoginStartDto },
    answer: { status: 201, model: SamlLoginRedirectDto, description: 'Where to send the browser.' },
    refuses: { 404: NO_IDP },
  }),
  finish: operation({
    id: 'finishSamlLogin',
    tag: 'Internal',
    summary: 'The IdP’s Response at the ACS: validated, and a session opened for its user',
    method: 'POST',
    path: 'internal/v1/saml/sessions',
    caller: INTERNAL,
    body: { type: 'json', model: SamlAssertionConsumerDto },
    answer: { status: 201, model: OpenedSessionDto, description: 'The session and its user.' },
    refuses: {
      400: 'The Response is refused (its reason code in the detail; audited `saml.login_refused`).',
      403: 'The user is deactivated.',
      404: NO_IDP,
    },
  }),
};

@ApiSchema({
  name: 'SamlResponseForm',
  description: 'The HTTP-POST binding’s form, as the IdP’s page posts it (SAML bindings 3.5).',
})
export class SamlResponseFormDto {
  @ApiProperty({
    maxLength: SAML_RESPONSE_MAX_LENGTH,
    description: `The base64 SAML Response (at most ${SAML_MAX_DOCUMENT_BYTES / 1024} KiB of XML).`,
  })
  SAMLResponse: string;

  @ApiPropertyOptional({
    description: 'Echoed by the IdP; not used (the request travels in a sealed cookie).',
  })
  RelayState?: string;
}
