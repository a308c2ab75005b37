import { IsBoolean, IsObject, IsOptional, IsString, MaxLength } from 'class-validator';
import {
  AUTHORIZATION_PARAMETER_MAX_LENGTH as LIMIT,
  type AuthorizationRequestParams,
  type ConsentPrompt,
  type CreatedSession,
  type User,
} from '@platform/domain';

/**
 * Shapes only, with the bounds the backend already enforced (a request over one never gets
 * here from it): what the parameters mean is the domain's
 * to judge, so that its refusals keep the `{error, error_description, redirectable}` form.
 */
export class AuthorizationRequestDto implements AuthorizationRequestParams {
  @IsOptional()
  @IsString()
  @MaxLength(LIMIT.client_id)
  client_id?: string;

  @IsOptional()
  @IsString()
  @MaxLength(LIMIT.redirect_uri)
  redirect_uri?: string;

  @IsOptional()
  @IsString()
  @MaxLength(LIMIT.response_type)
  response_type?: string;

  @IsOptional()
  @IsString()
  @MaxLength(LIMIT.scope)
  scope?: string;

  @IsOptional()
  @IsString()
  @MaxLength(LIMIT.code_challenge)
  code_challenge?: string;

  @IsOptional()
  @IsString()
  @MaxLength(LIMIT.code_challenge_method)
  code_challenge_method?: string;

  @IsOptional()
  @IsString()
  @MaxLength(LIMIT.state)
  state?: string;
}

export class AuthorizationDecisionDto extends AuthorizationRequestDto {
  @IsString()
  @MaxLength(512)
  session: string;

  @IsBoolean()
  approved: boolean;
}

/**
 * Who signed in: the identity provider's ID token as the backend received it (the control plane
 * verifies it), with the UserInfo answer. `issuer`, `subject` and `claims` are the test seam's
 * (TEST_SESSIONS_FROM_CLAIMS), refused otherwise.
 */
export class CreateSessionDto {
  @IsOptional()
  @IsString()
  @MaxLength(16_384)
  id_token?: string;

  @IsOptional()
  @IsObject()
  userinfo?: Record<string, unknown>;

  @IsOptional()
  @IsString()
  @MaxLength(2048)
  issuer?: string;

  @IsOptional()
  @IsString()
  @MaxLength(255)
  subject?: string;

  @IsOptional()
  @IsObject()
  claims?: Record<string, unknown>;
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
