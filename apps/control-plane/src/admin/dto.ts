import { Type } from 'class-transformer';
import { IsArray, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import type { Application } from '@platform/domain';

/** Shapes only; the registry decides what is a valid client_id, scope or redirect URI. */
export class RegisterApplicationDto {
  @IsString()
  @MaxLength(64)
  client_id: string;

  @IsString()
  @MaxLength(200)
  name: string;

  @IsArray()
  @IsString({ each: true })
  @MaxLength(128, { each: true })
  declared_scopes: string[];

  @IsString()
  app_type: string;

  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  @MaxLength(2000, { each: true })
  redirect_uris?: string[];
}

/** `POST /api/v1/apps/register`: a service account; the platform names it. */
export class RegisterServiceAccountDto {
  @IsString()
  @MaxLength(200)
  name: string;

  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  @MaxLength(128, { each: true })
  declared_scopes?: string[];
}

export class DefineScopeDto {
  @IsString()
  @MaxLength(128)
  name: string;

  @IsString()
  @MaxLength(500)
  description: string;
}

export class ListApplicationsQuery {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1000)
  limit?: number;

  @IsOptional()
  @IsString()
  @MaxLength(64)
  after?: string;
}

export class ListTokenEventsQuery {
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1000)
  limit?: number;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  after?: number;

  @IsOptional()
  @IsString()
  @MaxLength(64)
  client_id?: string;
}

/** An application as the API shows it: never a secret or its hash. */
export function toApplicationResponse(app: Application) {
  return {
    client_id: app.clientId,
    name: app.name,
    declared_scopes: app.declaredScopes,
    app_type: app.appType,
    redirect_uris: app.redirectUris,
    created_at: app.createdAt.toISOString(),
    rotated_at: app.rotatedAt?.toISOString() ?? null,
  };
}
