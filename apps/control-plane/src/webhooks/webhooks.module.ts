import { Module } from '@nestjs/common';
import type { PlatformConfig } from '@platform/config';
import {
  AuditTrail,
  WebhookDeliveryWorker,
  WebhookDispatcher,
  WebhookRegistry,
  type Clock,
  type Stores,
  type Transactor,
} from '@platform/domain';
import { AdminApiGuard } from '../admin/admin-api.guard';
import { CLOCK, PLATFORM_CONFIG, STORES, TRANSACTOR } from '../platform/tokens';
import { AdminWebhooksController } from './admin-webhooks.controller';
import { HttpWebhookSender } from './http-webhook-sender';
import { WebhookDeliveryLoop } from './webhook-delivery-loop';
import { webhookPayload } from './webhook-wire';

/** At most this many deliveries of one endpoint in flight, across every replica. */
const PER_ENDPOINT_IN_FLIGHT = 8;
/** A lease outlives the sender's timeout by this much, so recording the attempt fits in it. */
const LEASE_MARGIN_MS = 5_000;

/** Webhooks (docs/webhooks.md): the admin routes and the delivery loop every replica runs. */
@Module({
  controllers: [AdminWebhooksController],
  providers: [
    AdminApiGuard,
    {
      provide: WebhookRegistry,
      useFactory: (
        stores: Stores,
        transactor: Transactor,
        trail: AuditTrail,
        clock: Clock,
        config: PlatformConfig,
      ) =>
        new WebhookRegistry(stores.webhooks, transactor, trail, clock, {
          allowPrivateNetworks: config.webhooks.allowPrivateUrls,
        }),
      inject: [STORES, TRANSACTOR, AuditTrail, CLOCK, PLATFORM_CONFIG],
    },
    {
      provide: WebhookDeliveryLoop,
      useFactory: (stores: Stores, transactor: Transactor, clock: Clock, config: PlatformConfig) => {
        const { timeoutMs, allowPrivateUrls, concurrency } = config.webhooks;
        const sender = new HttpWebhookSender({ timeoutMs, allowPrivateNetworks: allowPrivateUrls });
        return new WebhookDeliveryLoop(
          new WebhookDispatcher(stores, transactor, () => clock.now()),
          new WebhookDeliveryWorker(stores.webhooks, stores.audit, sender, webhookPayload, clock, {
            perEndpoint: PER_ENDPOINT_IN_FLIGHT,
            leaseMs: timeoutMs + LEASE_MARGIN_MS,
          }),
          { concurrency },
          sender,
        );
      },
      inject: [STORES, TRANSACTOR, CLOCK, PLATFORM_CONFIG],
    },
  ],
})
export class WebhooksModule {}
