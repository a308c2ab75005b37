import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import {
  APP_TYPES,
  type AppType,
  STANDARD_SCOPES,
  TOKEN_EVENT_TYPES,
  type TokenEventType,
} from '@platform/domain';
import { IsArray, IsOptional, IsString, MaxLength } from 'class-validator';
import { ClientIdProperty, ScopeNamesProperty, TimestampProperty } from './fields';
import { CursorPageQueryDto, PageQueryDto } from './paging';

/** Validation checks shapes only; the registry decides what is a valid client_id, scope or redirect URI. */

const APP_TYPE = {
  enum: APP_TYPES,
  enumName: 'AppType',
  description:
    '`service`: client_credentials; `web`: authorization_code + refresh_token; `spa`: authorization_code + PKCE, no secret; `cli`: authorization_code + PKCE.',
};

@ApiSchema({ name: 'ApplicationRegistration' })
export class RegisterApplicationDto {
  @ClientIdProperty()
  @IsString()
  @MaxLength(64)
  client_id: string;

  @ApiProperty({ minLength: 1, maxLength: 200 })
  @IsString()
  @MaxLength(200)
  name: string;

  @ScopeNamesProperty({
    minItems: 1,
    description:
      'Standard scopes, custom ones (`POST /api/v1/scopes`) or names covered by a defined wildcard; anything else is refused (400).',
  })
  @IsArray()
  @IsString({ each: true })
  @MaxLength(128, { each: true })
  declared_scopes: string[];

  @ApiProperty(APP_TYPE)
  @IsString()
  app_type: string;

  @ApiPropertyOptional({
    type: 'string',
    isArray: true,
    format: 'uri',
    maxLength: 2000,
    description:
      'Required for `web`, `spa`, `cli`, refused for `service`. `https`, `http` on loopback hosts only (RFC 8252 7.3), or a private-use reverse-domain scheme (7.1); never a fragment. Matched exactly.',
  })
  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  @MaxLength(2000, { each: true })
  redirect_uris?: string[];

  @TenantBindingProperty()
  @IsOptional()
  @IsString()
  @MaxLength(64)
  tenant?: string;
}

@ApiSchema({
  name: 'Application',
  description:
    'An application as the registry shows it: never a secret or its hash. This is also the item of the app listing (the specification leaves it "not shown").',
})
export class ApplicationDto {
  @ClientIdProperty() client_id: string;
  @ApiProperty() name: string;
  @ScopeNamesProperty() declared_scopes: string[];
  @ApiProperty(APP_TYPE) app_type: AppType;
  @ApiProperty({ type: 'string', isArray: true, format: 'uri' }) redirect_uris: string[];
  @TimestampProperty() created_at: string;
  @TimestampProperty({ nullable: true, description: 'Last secret rotation, or null.' }) rotated_at:
    string | null;
  @ApiPropertyOptional({
    description: 'The tenant a service app is bound to, when it is (SCIM provisioning).',
  })
  tenant?: string;
}

@ApiSchema({
  name: 'RegisteredApplication',
  description: 'The new application, with its secret: shown this once (absent for `spa`, which has none).',
})
export class RegisteredApplicationDto extends ApplicationDto {
  @ApiPropertyOptional({
    description: '256 random bits, base64url (43 characters). Stored only as an argon2id hash.',
  })
  client_secret?: string;
}

@ApiSchema({
  name: 'RotatedSecret',
  description: 'The new secret, shown once; the old one stopped working at this moment.',
})
export class RotatedSecretDto {
  @ApiProperty() client_id: string;
  @ApiProperty() client_secret: string;
  @TimestampProperty() rotated_at: string;
}

export class ListApplicationsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ description: 'Cursor: the last `client_id` of the previous page.' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  after?: string;
}

@ApiSchema({
  name: 'ScopeDefinition',
  description: 'A custom scope (the specification leaves the body "not shown").',
})
export class DefineScopeDto {
  @ApiProperty({
    maxLength: 128,
    description: '`resource.action` in lower case; not a standard scope, not already defined.',
    example: 'reports.export',
  })
  @IsString()
  @MaxLength(128)
  name: string;

  @ApiProperty({ minLength: 1, maxLength: 500, example: 'Export reports' })
  @IsString()
  @MaxLength(500)
  description: string;
}

@ApiSchema({ name: 'DefinedScope' })
export class DefinedScopeDto {
  @ApiProperty() name: string;
  @ApiProperty() description: string;
  @TimestampProperty() created_at: string;
}

@ApiSchema({
  name: 'Scope',
  description: `A scope of the listing: standard (\`standard: true\`, \`created_at: null\`) or custom. The standard scopes: ${STANDARD_SCOPES.map((scope) => `\`${scope.name}\` (${scope.description})`).join(', ')}.`,
})
export class ScopeDto {
  @ApiProperty() name: string;
  @ApiProperty() description: string;
  @ApiProperty() standard: boolean;
  @TimestampProperty({ nullable: true }) created_at: string | null;
}

@ApiSchema({ name: 'TokenEvent' })
export class TokenEventDto {
  @ApiProperty({ type: 'integer', description: 'Increasing cursor.' }) id: number;
  @ApiProperty({ enum: TOKEN_EVENT_TYPES }) type: TokenEventType;
  @ApiProperty() client_id: string;
  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'The user or, for service tokens, the client.',
  })
  subject: string | null;
  @ApiProperty({ type: 'string', nullable: true }) jti: string | null;
  @ApiProperty({ type: 'string', nullable: true }) grant_id: string | null;
  @TimestampProperty() occurred_at: string;
}

@ApiSchema({
  name: 'TokenEventPage',
  description: 'One page of the stream, oldest first. Pass `next_after` back as `after` to continue.',
})
export class TokenEventPageDto {
  @ApiProperty({ type: () => TokenEventDto, isArray: true }) events: TokenEventDto[];
  @ApiProperty({
    type: 'integer',
    description: 'The id of the last event of the page (or the `after` given when the page is empty).',
  })
  next_after: number;
}

export class ListTokenEventsQueryDto extends CursorPageQueryDto {
  @ApiPropertyOptional({ description: 'Only the events of this application.' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  client_id?: string;
}

@ApiSchema({ name: 'ServiceAccountRegistration' })
export class RegisterServiceAccountDto {
  @ApiProperty({ minLength: 1, maxLength: 200 })
  @IsString()
  @MaxLength(200)
  name: string;

  @ScopeNamesProperty({
    required: false,
    description: 'Optional; the same rules as at `POST /v1/oauth/apps`.',
  })
  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  @MaxLength(128, { each: true })
  declared_scopes?: string[];

  @TenantBindingProperty()
  @IsOptional()
  @IsString()
  @MaxLength(64)
  tenant?: string;
}

@ApiSchema({
  name: 'ServiceAccount',
  description: 'A `service` app with a generated `client_id`; the secret is shown this once.',
})
export class ServiceAccountDto {
  @ClientIdProperty() client_id: string;
  @ApiProperty() client_secret: string;
  @ApiProperty() name: string;
  @ScopeNamesProperty() declared_scopes: string[];
  @ApiProperty({ enum: ['service'] }) app_type: 'service';
  @TimestampProperty() created_at: string;
  @ApiPropertyOptional({ description: 'The tenant the account is bound to, when it is.' }) tenant?: string;
}

/** A service app's binding to the tenant it provisions (docs/scim.md). */
function TenantBindingProperty() {
  return ApiPropertyOptional({
    maxLength: 64,
    pattern: '^[A-Za-z0-9._-]{1,64}$',
    description:
      'A `service` app only: the tenant it acts in where an API is per tenant. Its SCIM provisioning (`scim.read`, `scim.write`) reaches this tenant and no other; without it, the default tenant.',
  });
}
