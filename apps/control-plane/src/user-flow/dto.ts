import { IsBoolean, IsObject, IsOptional, IsString, MaxLength } from 'class-validator';
import type { AuthorizationRequestParams, ConsentPrompt, CreatedSession, User } from '@platform/domain';

/**
 * Shapes only, with bounds no real request reaches: what the parameters mean is the domain's
 * to judge, so that its refusals keep the `{error, error_description, redirectable}` form.
 */
export class AuthorizationRequestDto implements AuthorizationRequestParams {
  @IsOptional()
  @IsString()
  @MaxLength(256)
  client_id?: string;

  @IsOptional()
  @IsString()
  @MaxLength(4096)
  redirect_uri?: string;

  @IsOptional()
  @IsString()
  @MaxLength(256)
  response_type?: string;

  @IsOptional()
  @IsString()
  @MaxLength(4096)
  scope?: string;

  @IsOptional()
  @IsString()
  @MaxLength(256)
  code_challenge?: string;

  @IsOptional()
  @IsString()
  @MaxLength(256)
  code_challenge_method?: string;

  @IsOptional()
  @IsString()
  @MaxLength(4096)
  state?: string;
}

export class AuthorizationDecisionDto extends AuthorizationRequestDto {
  @IsString()
  @MaxLength(512)
  session: string;

  @IsBoolean()
  approved: boolean;
}

/** The verified ID token / userinfo claims the backend got from the identity provider. */
export class CreateSessionDto {
  @IsString()
  @MaxLength(2048)
  issuer: string;

  @IsString()
  @MaxLength(255)
  subject: string;

  @IsObject()
  claims: Record<string, unknown>;
}

export class SessionDto {
  @IsString()
  @MaxLength(512)
  session: string;
}

export function toUserResponse(user: User) {
  return { id: user.id, email: user.email, name: user.name, tenant: user.tenant, roles: user.roles };
}

export function toSessionResponse(created: CreatedSession) {
  return {
    session: created.session,
    expires_at: created.expiresAt.toISOString(),
    user: toUserResponse(created.user),
  };
}

export function toConsentPromptResponse(prompt: ConsentPrompt) {
  return {
    client_id: prompt.client.clientId,
    client_name: prompt.client.name,
    redirect_uri: prompt.redirectUri,
    scopes: prompt.scopes,
  };
}
