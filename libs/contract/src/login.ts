import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import {
  AUTHORIZATION_PARAMETER_MAX_LENGTH as LIMIT,
  type AuthorizationRequestParams,
  type ImpersonationClaim,
} from '@platform/domain';
import { IsBoolean, IsObject, IsOptional, IsString, MaxLength } from 'class-validator';
import { RolesProperty, ScopesProperty, UnixSecondsProperty } from './fields';
import { TokenResponseDto } from './oauth';
import { operation } from './operation-table';
import { ActorProperty, ImpersonationProperty, type TokenActorDto } from './token-claims';

/** The app login family (`/api/v1/auth/*`, camelCase as the specification names it) and the browser forms. */

const CLIENT_ID = 'The app’s client_id, always (as at the token endpoint).';
const CLIENT_SECRET =
  'The app’s secret, required of an app that holds one (any type but `spa`); or send both as HTTP Basic instead.';

@ApiSchema({ name: 'CodeExchangeRequest' })
export class CodeExchangeRequestDto {
  @ApiProperty({ description: 'The one-time code of the login callback (60 s, single use).' })
  code: string;

  @ApiProperty({
    description: 'The PKCE verifier (RFC 7636) whose S256 challenge started the login, 43 to 128 characters.',
  })
  codeVerifier: string;

  @ApiProperty({ description: CLIENT_ID }) clientId: string;
  @ApiPropertyOptional({ description: CLIENT_SECRET }) clientSecret?: string;
}

@ApiSchema({ name: 'AppRefreshRequest' })
export class AppRefreshRequestDto {
  @ApiProperty()
  refreshToken: string;

  @ApiProperty({ description: CLIENT_ID }) clientId: string;
  @ApiPropertyOptional({ description: CLIENT_SECRET }) clientSecret?: string;
}

@ApiSchema({
  name: 'AppTokens',
  description:
    'The login family’s token answer (camelCase, as the specification names `accessToken` and `refreshToken`). Sent with `Cache-Control: no-store`.',
})
export class AppTokensDto {
  @ApiProperty({ description: 'An RS256 JWT access token of the user.' }) accessToken: string;
  @ApiProperty({ description: 'Opaque, rotating, 30 days.' }) refreshToken: string;
  @ApiProperty({ enum: ['Bearer'] }) tokenType: string;
  @ApiProperty({ type: 'integer', enum: [3600] }) expiresIn: number;
  @ScopesProperty() scope: string;
}

/** The login family's validation: what `audience` means, in the body and the query alike. */
export const VALIDATION_AUDIENCE_DESCRIPTION =
  'The resource the caller serves (its registered resource URI, RFC 8707): only a token for exactly this audience is active. Absent: only a token for the platform itself (`aud` = the issuer).';

@ApiSchema({ name: 'ValidateRequest' })
export class ValidateRequestDto {
  @ApiProperty({ description: 'The access token to judge.' })
  token: string;

  @ApiPropertyOptional({ description: VALIDATION_AUDIENCE_DESCRIPTION })
  audience?: string;
}

@ApiSchema({
  name: 'ActiveTokenValidation',
  description:
    'The sidecar’s judgement of a valid token (signature, expiry, deny-list, app still registered). An invalid token is not an error: `{"active": false}`.',
})
export class ActiveTokenValidationDto {
  @ApiProperty({ type: 'boolean', enum: [true] }) active: true;
  @ApiProperty() sub: string;
  @ApiProperty() client_id: string;
  @ScopesProperty() scope: string;
  @ApiPropertyOptional({ description: 'User tokens only.' }) tenant?: string;
  @RolesProperty({ required: false, description: 'User tokens only.' }) roles?: string[];
  @UnixSecondsProperty() exp: number;
  @ActorProperty() act?: TokenActorDto;
  @ImpersonationProperty() impersonation?: ImpersonationClaim;
}

@ApiSchema({
  name: 'ConsentDecision',
  description:
    'The consent form: the authorization request parameters (as on `GET /oauth/authorize`), the CSRF token of the page, and the button pressed.',
})
export class ConsentDecisionDto {
  @ApiProperty() client_id: string;
  @ApiPropertyOptional({ enum: ['code'] }) response_type?: string;
  @ApiProperty({ format: 'uri' }) redirect_uri: string;
  @ScopesProperty({ required: false }) scope?: string;
  @ApiPropertyOptional() code_challenge?: string;
  @ApiPropertyOptional({ enum: ['S256'] }) code_challenge_method?: string;
  @ApiPropertyOptional() state?: string;
  @ApiProperty({ description: 'HMAC of the browser session, from the consent page.' }) csrf_token: string;
  @ApiProperty({ enum: ['approve', 'deny'] }) decision: string;
}

@ApiSchema({ name: 'LogoutForm' })
export class LogoutFormDto {
  @ApiPropertyOptional({ description: 'Required whenever a session cookie is sent.' }) csrf_token?: string;
  @ApiPropertyOptional({ description: 'A path on this server to go to afterwards.' }) return_to?: string;
}

/*
 * The control plane's internal routes of the logins (docs/internal-api.md): the backend renders the
 * pages around them. Their answers are read by the backend alone, so they are typed here without
 * being part of the public document.
 */

const INTERNAL = { kind: 'internal' } as const;
const NOT_A_CALLBACK = '`return_to` is not exactly the registered redirect URI of one app.';
const REFUSED_REQUEST =
  'The authorization request is refused: `error`, `error_description`, and whether it may be redirected.';
const NO_SESSION = 'The browser session is unknown or expired.';

/** The `return_to` of an app login. */
export class ReturnToDto {
  @IsString()
  @MaxLength(2048)
  return_to: string;
}

export class LoginCodeRequestDto extends ReturnToDto {
  @IsString()
  @MaxLength(512)
  session: string;

  @IsString()
  @MaxLength(64)
  client_id: string;

  @IsString()
  @MaxLength(128)
  code_challenge: string;

  @IsOptional()
  @IsString()
  @MaxLength(512)
  state?: string;
}

/** The app's credentials, as at the token endpoint (or Basic, passed through). */
export class AppClientDto {
  @IsOptional()
  @IsString()
  @MaxLength(512)
  client_id?: string;

  @IsOptional()
  @IsString()
  @MaxLength(512)
  client_secret?: string;
}

export class LoginCodeExchangeDto extends AppClientDto {
  @IsOptional()
  @IsString()
  @MaxLength(512)
  code?: string;

  @IsOptional()
  @IsString()
  @MaxLength(512)
  code_verifier?: string;
}

export class AppLoginRefreshDto extends AppClientDto {
  @IsOptional()
  @IsString()
  @MaxLength(512)
  refresh_token?: string;
}

/** The app a login's `return_to` belongs to. */
export class AppLoginTargetDto {
  client_id: string;
  client_name: string;
  return_to: string;
}

/** Where to send the browser next. */
export class LoginRedirectDto {
  redirect_to: string;
}

/**
 * The app login of the user-forwarding model: which app a `return_to` belongs to, the one-time
 * login code after the identity provider's login, and the code and refresh exchanges the app
 * makes server-to-server through the backend (with the app's Basic credentials, when it uses
 * them, as the `authorization` header).
 */
export const INTERNAL_APP_LOGIN_OPERATIONS = {
  check: operation({
    id: 'checkAppLoginTarget',
    tag: 'Internal',
    summary: 'Before the browser leaves for the identity provider: 200 the app, or 400 (never a redirect)',
    method: 'POST',
    path: 'internal/v1/app-login/check',
    caller: INTERNAL,
    body: { type: 'json', model: ReturnToDto },
    answer: { status: 200, model: AppLoginTargetDto, description: 'The app the `return_to` belongs to.' },
    refuses: { 400: NOT_A_CALLBACK },
  }),
  issue: operation({
    id: 'issueAppLoginCode',
    tag: 'Internal',
    summary: 'After the login: where to send the browser, with the one-time code',
    method: 'POST',
    path: 'internal/v1/app-login/codes',
    caller: INTERNAL,
    body: { type: 'json', model: LoginCodeRequestDto },
    answer: { status: 201, model: LoginRedirectDto, description: 'The app’s callback with the code.' },
    refuses: { 400: NOT_A_CALLBACK },
  }),
  exchange: operation({
    id: 'exchangeAppLoginCode',
    tag: 'Internal',
    summary: 'The one-time login code for the user’s tokens',
    method: 'POST',
    path: 'internal/v1/app-login/exchange',
    caller: INTERNAL,
    body: { type: 'json', model: LoginCodeExchangeDto },
    answer: { status: 200, model: TokenResponseDto, description: 'The RFC 6749 token answer.' },
  }),
  refresh: operation({
    id: 'refreshAppLoginTokens',
    tag: 'Internal',
    summary: 'A refresh token of the app login for new tokens',
    method: 'POST',
    path: 'internal/v1/app-login/refresh',
    caller: INTERNAL,
    body: { type: 'json', model: AppLoginRefreshDto },
    answer: { status: 200, model: TokenResponseDto, description: 'The RFC 6749 token answer.' },
  }),
};

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

  @IsOptional()
  @IsString()
  @MaxLength(LIMIT.nonce)
  nonce?: string;

  @IsOptional()
  @IsString()
  @MaxLength(LIMIT.prompt)
  prompt?: string;

  @IsOptional()
  @IsString()
  @MaxLength(LIMIT.max_age)
  max_age?: string;

  @IsOptional()
  @IsString()
  @MaxLength(LIMIT.id_token_hint)
  id_token_hint?: string;

  @IsOptional()
  @IsString()
  @MaxLength(LIMIT.login_hint)
  login_hint?: string;

  @IsOptional()
  @IsString()
  @MaxLength(LIMIT.request)
  request?: string;

  @IsOptional()
  @IsString()
  @MaxLength(LIMIT.request_uri)
  request_uri?: string;

  @IsOptional()
  @IsString()
  @MaxLength(LIMIT.registration)
  registration?: string;
}

export class AuthorizationDecisionDto extends AuthorizationRequestDto {
  @IsString()
  @MaxLength(512)
  session: string;

  @IsBoolean()
  approved: boolean;
}

/** An authorization request the client may make, with what the consent screen shows. */
export class ConsentPromptDto {
  client_id: string;
  client_name: string;
  redirect_uri: string;
  scopes: { name: string; description: string }[];
  /** The user the request's `id_token_hint` names. */
  hinted_subject?: string;
}

/** The authorization endpoint's decisions; the backend renders the pages around them. */
export const INTERNAL_AUTHORIZE_OPERATIONS = {
  check: operation({
    id: 'checkAuthorizationRequest',
    tag: 'Internal',
    summary: 'Before the user is asked to log in: is this a request the client may make?',
    method: 'POST',
    path: 'internal/v1/authorize/check',
    caller: INTERNAL,
    body: { type: 'json', model: AuthorizationRequestDto },
    answer: { status: 200, model: ConsentPromptDto, description: 'The request is acceptable.' },
    refuses: { 400: REFUSED_REQUEST },
  }),
  decision: operation({
    id: 'decideAuthorizationRequest',
    tag: 'Internal',
    summary: 'The user’s answer on the consent screen: where to send the browser',
    method: 'POST',
    path: 'internal/v1/authorize/decision',
    caller: INTERNAL,
    body: { type: 'json', model: AuthorizationDecisionDto },
    answer: {
      status: 200,
      model: LoginRedirectDto,
      description: 'The client’s redirect URI, with the code or the error.',
    },
    refuses: { 400: REFUSED_REQUEST, 401: NO_SESSION },
  }),
};

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

/** A browser session, by its opaque cookie value. */
export class SessionDto {
  @IsString()
  @MaxLength(512)
  session: string;
}

/** The signed-in person, as the control plane keeps them. */
export class SessionUserDto {
  id: string;
  email: string | null;
  name: string | null;
  tenant: string;
  roles: string[];
}

export class OpenedSessionDto {
  /** The opaque value for the session cookie. */
  session: string;
  expires_at: string;
  user: SessionUserDto;
}

export class ResolvedSessionDto {
  user: SessionUserDto;
  /** When the user signed in (OpenID Connect `auth_time`). */
  auth_time: string;
}

/** Browser sessions, opened by the backend once the identity provider vouched for the user. */
export const SESSION_OPERATIONS = {
  create: operation({
    id: 'createBrowserSession',
    tag: 'Internal',
    summary: 'Open a browser session from the identity provider’s ID token',
    method: 'POST',
    path: 'internal/v1/sessions',
    caller: INTERNAL,
    body: { type: 'json', model: CreateSessionDto },
    answer: { status: 201, model: OpenedSessionDto, description: 'The session and its user.' },
  }),
  resolve: operation({
    id: 'resolveBrowserSession',
    tag: 'Internal',
    summary: 'The user of a browser session',
    method: 'POST',
    path: 'internal/v1/sessions/resolve',
    caller: INTERNAL,
    body: { type: 'json', model: SessionDto },
    answer: { status: 200, model: ResolvedSessionDto, description: 'The session’s user.' },
    refuses: { 401: NO_SESSION },
  }),
  end: operation({
    id: 'endBrowserSession',
    tag: 'Internal',
    summary: 'End a browser session (logout)',
    method: 'POST',
    path: 'internal/v1/sessions/end',
    caller: INTERNAL,
    body: { type: 'json', model: SessionDto },
    answer: { status: 204, description: 'Ended.' },
  }),
};
