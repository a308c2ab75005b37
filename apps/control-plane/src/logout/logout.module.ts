import { Module } from '@nestjs/common';
import type { PlatformConfig } from '@platform/config';
import {
  AuditTrail,
  BackchannelLogoutWorker,
  IdTokenIssuer,
  LogoutRequests,
  LogoutTokenIssuer,
  SigningKeyRing,
  type Clock,
  type Stores,
  type Transactor,
} from '@platform/domain';
import { InternalGuard } from '../platform/internal.guard';
import { CLOCK, PLATFORM_CONFIG, STORES, TRANSACTOR } from '../platform/tokens';
import { HttpWebhookSender } from '../webhooks/http-webhook-sender';
import { BackchannelLogoutLoop } from './backchannel-logout-loop';
import { LogoutController } from './logout.controller';

/** Back-channel logouts in flight at once in one control plane. */
const CONCURRENCY = 16;
/** A lease outlives the sender's timeout by this much, so recording the attempt fits in it. */
const LEASE_MARGIN_MS = 5_000;

/**
 * OpenID Connect logout (docs/openid-connect.md): the end-session endpoint's internal check, and
 * the back-channel logout delivery loop every replica runs. Ending the session itself is the
 * sessions route's (`SessionService.end`, with `SessionEnding`).
 */
@Module({
  controllers: [LogoutController],
  providers: [
    InternalGuard,
    {
      provide: LogoutRequests,
      useFactory: (stores: Stores, keys: SigningKeyRing, config: PlatformConfig, clock: Clock) =>
        new LogoutRequests(
          stores.applications,
          stores.sessions,
          new IdTokenIssuer(keys, config.issuer, clock),
          clock,
        ),
      inject: [STORES, SigningKeyRing, PLATFORM_CONFIG, CLOCK],
    },
    {
      provide: BackchannelLogoutLoop,
      useFactory: (
        stores: Stores,
        transactor: Transactor,
        keys: SigningKeyRing,
        trail: AuditTrail,
        clock: Clock,
        config: PlatformConfig,
      ) => {
        // The webhooks' sender: their timeout, and their rules on which addresses it may reach.
        const { timeoutMs, allowPrivateUrls } = config.webhooks;
        const sender = new HttpWebhookSender({ timeoutMs, allowPrivateNetworks: allowPrivateUrls });
        const worker = new BackchannelLogoutWorker(
          stores.backchannelLogouts,
          stores.applications,
          new LogoutTokenIssuer(keys, config.issuer, clock),
          sender,
          transactor,
          trail,
          clock,
          { leaseMs: timeoutMs + LEASE_MARGIN_MS },
        );
        return new BackchannelLogoutLoop(worker, { concurrency: CONCURRENCY }, sender);
      },
      inject: [STORES, TRANSACTOR, SigningKeyRing, AuditTrail, CLOCK, PLATFORM_CONFIG],
    },
  ],
})
export class LogoutModule {}
