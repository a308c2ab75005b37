import { Logger, Module, type OnApplicationBootstrap } from '@nestjs/common';
import type { PlatformConfig } from '@platform/config';
import {
  AuditTrail,
  Envelope,
  WebhookDeliveryWorker,
  WebhookDispatcher,
  WebhookRegistry,
  type Clock,
  type Stores,
  type Transactor,
} from '@platform/domain';
import { AdminApiGuard } from '../platform/admin-api.guard';
import { CLOCK, PLATFORM_CONFIG, STORES, TRANSACTOR } from '../platform/tokens';
import { AdminWebhooksController } from './admin-webhooks.controller';
import { HttpWebhookSender } from './http-webhook-sender';
import { WebhookDeliveryLoop } from './webhook-delivery-loop';
import { webhookPayload } from './webhook-wire';

/** At most this many deliveries of one endpoint in flight, across every replica. */
const PER_ENDPOINT_IN_FLIGHT = 32;
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
        envelope: Envelope,
      ) =>
        new WebhookRegistry(
          stores.webhooks,
          transactor,
          trail,
          clock,
          { allowPrivateNetworks: config.webhooks.allowPrivateUrls },
          envelope,
        ),
      inject: [STORES, TRANSACTOR, AuditTrail, CLOCK, PLATFORM_CONFIG, Envelope],
    },
    {
      provide: WebhookDeliveryLoop,
      useFactory: (
        stores: Stores,
        transactor: Transactor,
        clock: Clock,
        config: PlatformConfig,
        envelope: Envelope,
      ) => {
        const { timeoutMs, allowPrivateUrls, concurrency } = config.webhooks;
        const sender = new HttpWebhookSender({
          timeoutMs,
          allowPrivateNetworks: allowPrivateUrls,
          connections: concurrency,
        });
        return new WebhookDeliveryLoop(
          new WebhookDispatcher(stores, transactor, () => clock.now()),
          new WebhookDeliveryWorker(stores.webhooks, stores.audit, sender, webhookPayload, clock, envelope, {
            perEndpoint: PER_ENDPOINT_IN_FLIGHT,
            leaseMs: timeoutMs + LEASE_MARGIN_MS,
          }),
          { concurrency },
          sender,
        );
      },
      inject: [STORES, TRANSACTOR, CLOCK, PLATFORM_CONFIG, Envelope],
    },
  ],
  exports: [WebhookRegistry],
})
export class WebhooksModule implements OnApplicationBootstrap {
  private readonly logger = new Logger('Webhooks');

  constructor(private readonly registry: WebhookRegistry) {}

  /** Secrets an earlier release stored in the clear are sealed at the first start after it. */
  async onApplicationBootstrap(): Promise<void> {
    try {
      const { sealed, damaged } = await this.registry.sealClearSecrets();
      if (sealed > 0) this.logger.log(`sealed the signing secrets of ${sealed} webhook endpoints`);
      if (damaged.length > 0) {
        this.logger.warn(`the stored signing secret of webhook endpoints ${damaged.join(', ')} is damaged`);
      }
    } catch (error) {
      // The store failing now may not keep the control plane from serving: the clear secrets
      // still sign, and the next start (or a rewrap) seals them.
      this.logger.warn(`webhook secrets not sealed: ${(error as Error).message}`);
    }
  }
}
