import { Body, Controller, Header } from '@nestjs/common';
import { INTERNAL_LOGOUT_OPERATIONS, LogoutCheckDto } from '@platform/contract';
import { LogoutRequests } from '@platform/domain';
import { Implements } from '../platform/implements';

/** The end-session endpoint's questions (`/internal/v1/logout/*`): the backend renders the pages. */
@Controller()
export class LogoutController {
  constructor(private readonly requests: LogoutRequests) {}

  @Implements(INTERNAL_LOGOUT_OPERATIONS.check)
  @Header('Cache-Control', 'no-store')
  async check(@Body() body: LogoutCheckDto) {
    const checked = await this.requests.check(
      {
        idTokenHint: body.id_token_hint,
        clientId: body.client_id,
        postLogoutRedirectUri: body.post_logout_redirect_uri,
        state: body.state,
      },
      body.session,
    );
    return {
      client_id: checked.client?.clientId ?? null,
      client_name: checked.client?.name ?? null,
      redirect_to: checked.redirectTo,
      session_live: checked.sessionLive,
      hint_matches_session: checked.hintMatchesSession,
    };
  }
}
