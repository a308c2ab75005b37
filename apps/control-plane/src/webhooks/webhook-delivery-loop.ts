import { Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { WebhookDeliveryWorker, WebhookDispatcher, type WebhookDelivery } from '@platform/domain';

/** How often an idle loop looks for new records and due retries. */
export const WEBHOOK_POLL_MS = 250;

export interface WebhookLoopOptions {
  /** Deliveries in flight at once in this process. */
  concurrency: number;
}

/**
 * The control plane's delivery loop: fans new audit records out into deliveries, then keeps up
 * to `concurrency` attempts in flight, claiming more as each one ends. Every replica runs one;
 * the cursor lock and the delivery leases keep them from sending anything twice. At shutdown it
 * stops claiming and lets the attempts in flight finish; a process killed mid-attempt leaves a
 * lease that runs out, and another replica (or this one, restarted) sends the delivery again.
 */
export class WebhookDeliveryLoop implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Webhooks');
  private readonly inFlight = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private ticking: Promise<void> | undefined;
  private again = false;

  constructor(
    private readonly dispatcher: WebhookDispatcher,
    private readonly worker: WebhookDeliveryWorker,
    private readonly options: WebhookLoopOptions,
    private readonly sender: { close(): Promise<void> },
  ) {}

  onApplicationBootstrap(): void {
    this.running = true;
    this.schedule(0);
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.running = false;
    clearTimeout(this.timer);
    await this.ticking;
    await Promise.all(this.inFlight);
    await this.sender.close();
  }

  /** One pass: dispatch what is new, fill the free slots. Overlapping calls fold into one more pass. */
  private tick(): void {
    if (this.ticking) {
      this.again = true;
      return;
    }
    this.ticking = this.pass()
      .catch((error: Error) =>
        this.logger.warn(`webhook delivery pass failed: ${error.name}: ${error.message}`),
      )
      .finally(() => {
        this.ticking = undefined;
        if (this.again) {
          this.again = false;
          this.schedule(0);
        } else this.schedule(WEBHOOK_POLL_MS);
      });
  }

  private async pass(): Promise<void> {
    while (this.running && (await this.dispatcher.dispatchOnce()) > 0);
    const free = this.options.concurrency - this.inFlight.size;
    if (!this.running || free <= 0) return;
    for (const delivery of await this.worker.claim(free)) this.start(delivery);
  }

  private start(delivery: WebhookDelivery): void {
    const attempt = this.worker
      .attempt(delivery)
      .catch((error: Error) =>
        this.logger.warn(`webhook delivery ${delivery.id} failed: ${error.name}: ${error.message}`),
      )
      .finally(() => {
        this.inFlight.delete(attempt);
        if (this.running) this.tick(); // a slot is free
      });
    this.inFlight.add(attempt);
  }

  private schedule(ms: number): void {
    if (!this.running) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.tick(), ms);
    this.timer.unref();
  }
}
