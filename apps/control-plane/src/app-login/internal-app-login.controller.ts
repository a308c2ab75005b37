import { Body, Controller, Header, Headers } from '@nestjs/common';
import {
  AppLoginRefreshDto,
  INTERNAL_APP_LOGIN_OPERATIONS,
  LoginCodeExchangeDto,
  LoginCodeRequestDto,
  ReturnToDto,
} from '@platform/contract';
import { AppLoginService, AppTokenRefresher, LoginCodeGrant, OAuthError } from '@platform/domain';
import { RevocationFeed } from '../platform/revocation-feed';
import { Implements } from '../platform/implements';

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
  exchange(@Body() body: LoginCodeExchangeDto, @Headers('authorization') authorization: string | undefined) {
    return this.waking(() => this.codes.exchange(body, authorization));
  }

  @Implements(INTERNAL_APP_LOGIN_OPERATIONS.refresh)
  @Header('Cache-Control', 'no-store')
  refresh(@Body() body: AppLoginRefreshDto, @Headers('authorization') authorization: string | undefined) {
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
