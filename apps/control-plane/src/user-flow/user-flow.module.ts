import { Module } from '@nestjs/common';
import type { PlatformConfig } from '@platform/config';
import { type Stores, UserInfo } from '@platform/domain';
import { InternalGuard } from '../platform/internal.guard';
import { PLATFORM_CONFIG, STORES } from '../platform/tokens';
import { IdentityTokenVerifier } from './identity-token-verifier';
import { InternalAuthorizeController } from './internal-authorize.controller';
import { SessionsController } from './sessions.controller';
import { UserInfoController } from './userinfo.controller';

/**
 * Internal routes of the user flow (`/internal/v1/sessions`, `/internal/v1/authorize`), behind
 * the internal token: users, browser sessions and consent decisions live here; the backend
 * renders the pages and talks to the identity provider.
 */
@Module({
  controllers: [SessionsController, InternalAuthorizeController, UserInfoController],
  providers: [
    InternalGuard,
    {
      provide: UserInfo,
      useFactory: (stores: Stores) => new UserInfo(stores.users),
      inject: [STORES],
    },
    {
      provide: IdentityTokenVerifier,
      useFactory: (config: PlatformConfig) => new IdentityTokenVerifier(config.oidc),
      inject: [PLATFORM_CONFIG],
    },
  ],
})
export class UserFlowModule {}
