import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { RolesProperty, ScopesProperty, UnixSecondsProperty } from './fields';

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

@ApiSchema({ name: 'ValidateRequest' })
export class ValidateRequestDto {
  @ApiProperty({ description: 'The access token to judge.' })
  token: string;
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
