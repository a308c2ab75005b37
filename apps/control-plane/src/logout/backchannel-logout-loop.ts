import type { BackchannelLogout, BackchannelLogoutAttempt } from '@platform/domain';
import { metrics } from '@platform/telemetry';
import {
  DeliveryLoop,
  NO_DISPATCH,
  type DeliveryWorker,
  type WebhookLoopOptions,
} from '../webhooks/webhook-delivery-loop';

/**
 * Delivers the back-channel logout outbox on the webhooks' loop: the rows are written by the
 * transaction that ends a session (nothing to fan out), then claimed with leases, attempted and
 * recorded in batches by every replica.
 */
export class BackchannelLogoutLoop extends DeliveryLoop<BackchannelLogout, BackchannelLogoutAttempt> {
  constructor(
    worker: DeliveryWorker<BackchannelLogout, BackchannelLogoutAttempt>,
    options: WebhookLoopOptions,
    sender: { close(): Promise<void> },
  ) {
    super(NO_DISPATCH, worker, options, sender, {
      logger: 'BackchannelLogout',
      noun: 'back-channel logout',
      recorded: (results) => {
        for (const { state } of results) metrics.backchannelLogoutAttempts.labels(state).inc();
      },
    });
  }
}
