import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { TimestampProperty } from './fields';

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

@ApiSchema({
  name: 'AuthorizationServerMetadata',
  description: 'RFC 8414 metadata; every URL is under the issuer.',
})
export class AuthorizationServerMetadataDto {
  @ApiProperty({ format: 'uri' }) issuer: string;
  @ApiProperty({ format: 'uri' }) authorization_endpoint: string;
  @ApiProperty({ format: 'uri' }) token_endpoint: string;
  @ApiProperty({ format: 'uri' }) jwks_uri: string;
  @ApiProperty({ format: 'uri' }) introspection_endpoint: string;
  @ApiProperty({ format: 'uri' }) revocation_endpoint: string;
  @ApiPropertyOptional(urlList) scopes_supported?: string[];
  @ApiProperty({ enum: ['code'], isArray: true }) response_types_supported: string[];
  @ApiPropertyOptional({ enum: ['query'], isArray: true }) response_modes_supported?: string[];
  @ApiProperty(urlList) grant_types_supported: string[];
  @ApiPropertyOptional(urlList) token_endpoint_auth_methods_supported?: string[];
  @ApiPropertyOptional(urlList) introspection_endpoint_auth_methods_supported?: string[];
  @ApiPropertyOptional(urlList) revocation_endpoint_auth_methods_supported?: string[];
  @ApiProperty({ enum: ['S256'], isArray: true }) code_challenge_methods_supported: string[];
  @ApiPropertyOptional() authorization_response_iss_parameter_supported?: boolean;
}

@ApiSchema({ name: 'RotatedSigningKey' })
export class RotatedSigningKeyDto {
  @ApiProperty() kid: string;
  @TimestampProperty() created_at: string;
}
