import { Body, Controller, Header, Headers } from '@nestjs/common';
import { INTERNAL_APP_LOGIN_OPERATIONS } from '@platform/contract';
import { AppLoginService, AppTokenRefresher, LoginCodeGrant, OAuthError } from '@platform/domain';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { RevocationFeed } from '../platform/revocation-feed';
import { Implements } from '../platform/implements';

class ReturnToDto {
  @IsString()
  @MaxLength(2048)
  return_to: string;
}

class LoginCodeRequestDto extends ReturnToDto {
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
class AppClientDto {
  @IsOptional()
  @IsString()
  @MaxLength(512)
  client_id?: string;

  @IsOptional()
  @IsString()
  @MaxLength(512)
  client_secret?: string;
}

class ExchangeDto extends AppClientDto {
  @IsOptional()
  @IsString()
  @MaxLength(512)
  code?: string;

  @IsOptional()
  @IsString()
  @MaxLength(512)
  code_verifier?: string;
}

class RefreshDto extends AppClientDto {
  @IsOptional()
  @IsString()
  @MaxLength(512)
  refresh_token?: string;
}

/**
 * The app login of the user-forwarding model (docs/internal-api.md): which app a `return_to`
 * belongs to, the one-time login code after the identity provider's login, and the code and
 * refresh exchanges the app makes server-to-server through the backend (with the app's Basic
 * credentials, when it uses them, as the `authorization` header).
 */
@Controller()
export class InternalAppLoginController {
  constructor(
    private readonly login: AppLoginService,
    private readonly codes: LoginCodeGrant,
    private readonly refresher: AppTokenRefresher,
    private readonly feed: RevocationFeed,
  ) {}

  @Implements(INTERNAL_APP_LOGIN_OPERATIONS.check)
  async check(@Body() body: ReturnToDto) {
    const target = await this.login.target(body.return_to);
    return { client_id: target.clientId, client_name: target.clientName, return_to: target.returnTo };
  }

  @Implements(INTERNAL_APP_LOGIN_OPERATIONS.issue)
  @Header('Cache-Control', 'no-store')
  async issue(@Body() body: LoginCodeRequestDto) {
    const redirectTo = await this.login.issueCode(body.session, {
      clientId: body.client_id,
      returnTo: body.return_to,
      codeChallenge: body.code_challenge,
      ...(body.state !== undefined && { state: body.state }),
    });
    return { redirect_to: redirectTo };
  }

  @Implements(INTERNAL_APP_LOGIN_OPERATIONS.exchange)
  @Header('Cache-Control', 'no-store')
  exchange(@Body() body: ExchangeDto, @Headers('authorization') authorization: string | undefined) {
    return this.waking(() => this.codes.exchange(body, authorization));
  }

  @Implements(INTERNAL_APP_LOGIN_OPERATIONS.refresh)
  @Header('Cache-Control', 'no-store')
  refresh(@Body() body: RefreshDto, @Headers('authorization') authorization: string | undefined) {
    return this.waking(() => this.refresher.refresh(body, authorization));
  }

  /** A replayed code or refresh token revokes its grant: the sidecars hear of it at once. */
  private async waking<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof OAuthError && error.code === 'invalid_grant') this.feed.wake();
      throw error;
    }
  }
}
