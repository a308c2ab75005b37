import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { TimestampProperty } from './fields';
import { operation } from './operation-table';

@ApiSchema({ name: 'JsonWebKey' })
export class JsonWebKeyDto {
  @ApiProperty({ enum: ['RSA'] })
  kty: string;

  @ApiProperty({ enum: ['sig'] })
  use: string;

  @ApiProperty({ enum: ['RS256'] })
  alg: string;

  @ApiProperty({ description: 'The RFC 7638 thumbprint of the key.' })
  kid: string;

  @ApiProperty({ description: 'Modulus, base64url.' })
  n: string;

  @ApiProperty({ description: 'Exponent, base64url.', example: 'AQAB' })
  e: string;
}

@ApiSchema({
  name: 'JsonWebKeySet',
  description:
    'RFC 7517 key set. During a rotation several keys are published; the newest signs, the previous one stays for one token lifetime plus a minute.',
})
export class JsonWebKeySetDto {
  @ApiProperty({ type: () => JsonWebKeyDto, isArray: true })
  keys: JsonWebKeyDto[];
}

const urlList = { type: 'string', isArray: true } as const;
/** private_key_jwt assertions' algorithms (RFC 8414 section 2): asymmetric only, never `none` or an HMAC. */
const algList = { type: 'string', isArray: true, example: ['RS256', 'PS256', 'ES256'] } as const;

@ApiSchema({
  name: 'AuthorizationServerMetadata',
  description:
    'RFC 8414 metadata, which is also the OpenID Provider configuration (OpenID Connect Discovery 1.0); every URL is under the issuer.',
})
export class AuthorizationServerMetadataDto {
  @ApiProperty({ format: 'uri' }) issuer: string;
  @ApiProperty({ format: 'uri' }) authorization_endpoint: string;
  @ApiProperty({ format: 'uri' }) token_endpoint: string;
  @ApiProperty({ format: 'uri' }) jwks_uri: string;
  @ApiProperty({ format: 'uri' }) introspection_endpoint: string;
  @ApiProperty({ format: 'uri' }) revocation_endpoint: string;
  @ApiProperty({ format: 'uri', description: 'RFC 8628 section 4.' }) device_authorization_endpoint: string;
  @ApiPropertyOptional(urlList) scopes_supported?: string[];
  @ApiProperty({ enum: ['code'], isArray: true }) response_types_supported: string[];
  @ApiPropertyOptional({ enum: ['query'], isArray: true }) response_modes_supported?: string[];
  @ApiProperty(urlList) grant_types_supported: string[];
  @ApiPropertyOptional(urlList) token_endpoint_auth_methods_supported?: string[];
  @ApiPropertyOptional(urlList) introspection_endpoint_auth_methods_supported?: string[];
  @ApiPropertyOptional(urlList) revocation_endpoint_auth_methods_supported?: string[];
  @ApiPropertyOptional(algList) token_endpoint_auth_signing_alg_values_supported?: string[];
  @ApiPropertyOptional(algList) introspection_endpoint_auth_signing_alg_values_supported?: string[];
  @ApiPropertyOptional(algList) revocation_endpoint_auth_signing_alg_values_supported?: string[];
  @ApiProperty({ enum: ['S256'], isArray: true }) code_challenge_methods_supported: string[];
  @ApiPropertyOptional() authorization_response_iss_parameter_supported?: boolean;
  // OpenID Connect Discovery 1.0 section 3: the same document serves /.well-known/openid-configuration.
  @ApiProperty({ format: 'uri' }) userinfo_endpoint: string;
  @ApiProperty({ enum: ['public'], isArray: true }) subject_types_supported: string[];
  @ApiProperty({ enum: ['RS256'], isArray: true }) id_token_signing_alg_values_supported: string[];
  @ApiPropertyOptional(urlList) claims_supported?: string[];
  @ApiPropertyOptional(urlList) prompt_values_supported?: string[];
  @ApiPropertyOptional() request_parameter_supported?: boolean;
  @ApiPropertyOptional() request_uri_parameter_supported?: boolean;
  @ApiPropertyOptional() claims_parameter_supported?: boolean;
}

@ApiSchema({ name: 'RotatedSigningKey' })
export class RotatedSigningKeyDto {
  @ApiProperty() kid: string;
  @TimestampProperty() created_at: string;
}

/** Signing-key rotation (admin Bearer token): the new key signs, the old one stays published. */
export const KEY_OPERATIONS = {
  rotate: operation({
    id: 'rotateSigningKey',
    tag: 'Keys and discovery',
    summary: 'Rotate the signing key',
    description:
      'A new RS256 key (2048 bits) signs from now on; the previous one stays in `/v1/jwks` (and is accepted) for one token lifetime plus a minute. Sidecars re-read the key set every 30 s and at once on an unknown `kid`. No body.',
    method: 'POST',
    path: 'api/v1/keys/rotate',
    caller: { kind: 'admin' },
    answer: { status: 201, model: RotatedSigningKeyDto, description: 'The new key.' },
  }),
};

/**
 * The key set, public at the edge (`/v1/jwks`) and at the control plane. Not relayed by a table
 * controller: the backend's OAuth controller serves it with the OAuth endpoints.
 */
export const KEY_SET_OPERATIONS = {
  jwks: operation({
    id: 'getJwks',
    tag: 'Keys and discovery',
    summary: 'The key set (RFC 7517)',
    description:
      'The public keys that verify issued tokens, so that external services need not call the sidecar. No credential. Cached for 60 s (`Cache-Control: public, max-age=60`); on an unknown `kid`, fetch it again.',
    method: 'GET',
    path: 'v1/jwks',
    internal: 'api/v1/jwks',
    caller: { kind: 'public' },
    answer: { status: 200, model: JsonWebKeySetDto, description: 'The key set.' },
  }),
};
