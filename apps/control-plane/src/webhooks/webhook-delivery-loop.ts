import { Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import type { ClaimedWebhookDelivery, WebhookAttemptResult } from '@platform/domain';
import { metrics } from '@platform/telemetry';

/** How often the loop looks for new records and due retries. */
export const WEBHOOK_POLL_MS = 250;

export interface WebhookLoopOptions {
  /** Deliveries in flight at once in this process. */
  concurrency: number;
}

/** Turns new events into deliveries (the webhooks' fan-out of the audit log); answers how many it read. */
export interface DeliveryDispatcher {
  dispatchOnce(): Promise<number>;
}

/** Claims due deliveries (leases), attempts one, records finished attempts in a batch. */
export interface DeliveryWorker<Delivery extends { id: number }, Result> {
  claim(limit: number): Promise<Delivery[]>;
  attempt(delivery: Delivery): Promise<Result | null>;
  record(results: Result[]): Promise<void>;
  /** Records and claims again in one transaction: a worker's steady state, one per batch. */
  recordAndClaim?(results: Result[], limit: number): Promise<Delivery[]>;
}

/** What a delivery loop names in its logs and counts once attempts are recorded. */
export interface DeliveryLoopKind<Result> {
  /** The log context and the word of its warnings (`webhook`, `back-channel logout`). */
  logger: string;
  noun: string;
  recorded(results: Result[]): void;
}

/** Nothing to fan out: an outbox whose rows are written where the events happen. */
export const NO_DISPATCH: DeliveryDispatcher = { dispatchOnce: () => Promise.resolve(0) };

/**
 * Runs one step at a time: a call while it runs asks for one more run after it, so bursts of
 * calls (every finished delivery asks for a refill) fold into few database round trips.
 */
class Coalesced {
  private running: Promise<void> | undefined;
  private again = false;

  constructor(private readonly step: () => Promise<void>) {}

  run(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.again = false;
        await this.step();
      } while (this.again);
    })().finally(() => (this.running = undefined));
    return this.running;
  }

  settled(): Promise<void> {
    return this.running ?? Promise.resolve();
  }
}

/**
 * A control plane's delivery loop over a durable outbox: fans new events out into deliveries
 * (webhooks: the audit log's records), keeps up to `concurrency` attempts in flight (claiming
 * more as attempts end, so a slow receiver holds only its own slots) and records finished
 * attempts in batches. Every replica runs one; the cursor lock and the delivery leases keep them
 * from sending anything twice. At shutdown it stops claiming, lets the attempts in flight finish
 * and records them; a process killed mid-attempt leaves a lease that runs out, and the delivery
 * is sent again. Webhooks and back-channel logouts each run one (`WebhookDeliveryLoop`,
 * `BackchannelLogoutLoop`).
 */
export class DeliveryLoop<Delivery extends { id: number }, Result>
  implements OnApplicationBootstrap, BeforeApplicationShutdown
{
  private readonly logger: Logger;
  private readonly sending = new Set<Promise<void>>();
  private finished: Result[] = [];
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  /** Slots a claim under way may fill: two claims at once do not both count them free. */
  private reserved = 0;
  private flushQueued = false;
  private readonly poll = new Coalesced(() => this.guard('dispatch', () => this.dispatch()));
  private readonly fill = new Coalesced(() => this.guard('claim', () => this.claim()));
  private readonly flush = new Coalesced(() => this.guard('record', () => this.recordFinished()));

  constructor(
    private readonly dispatcher: DeliveryDispatcher,
    private readonly worker: DeliveryWorker<Delivery, Result>,
    private readonly options: WebhookLoopOptions,
    private readonly sender: { close(): Promise<void> },
    private readonly kind: DeliveryLoopKind<Result>,
  ) {
    this.logger = new Logger(kind.logger);
  }

  onApplicationBootstrap(): void {
    this.running = true;
    this.timer = setInterval(() => void this.poll.run(), WEBHOOK_POLL_MS);
    this.timer.unref();
    void this.poll.run();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.running = false;
    clearInterval(this.timer);
    await Promise.all([this.poll.settled(), this.fill.settled()]);
    await Promise.all(this.sending);
    await this.flush.run();
    await this.sender.close();
  }

  private async dispatch(): Promise<void> {
    if (this.finished.length > 0) await this.flush.run(); // a batch whose recording failed
    while (this.running && (await this.dispatcher.dispatchOnce()) > 0);
    await this.fill.run(); // new deliveries, and retries that came due
  }

  private async claim(): Promise<void> {
    if (this.running) await this.claiming((free) => this.worker.claim(free));
  }

  /** Runs a claim of the slots free now (none: not run), sending what it leased. */
  private async claiming(claim: (free: number) => Promise<Delivery[]>): Promise<boolean> {
    const free = this.options.concurrency - this.sending.size - this.finished.length - this.reserved;
    if (free <= 0) return false;
    this.reserved += free;
    try {
      for (const delivery of await claim(free)) this.send(delivery);
    } finally {
      this.reserved -= free;
    }
    return true;
  }

  private send(delivery: Delivery): void {
    const sent: Promise<void> = this.worker
      .attempt(delivery)
      .then((result) => {
        if (result) this.finished.push(result);
      })
      .catch((error: Error) =>
        this.logger.warn(`${this.kind.noun} delivery ${delivery.id} failed: ${error.name}: ${error.message}`),
      )
      .finally(() => {
        this.sending.delete(sent);
        this.flushSoon();
      });
    this.sending.add(sent);
  }

  /**
   * Records once the answers that arrived in this turn of the event loop have all finished, so
   * that attempts ending together are one batch rather than one transaction each.
   */
  private flushSoon(): void {
    if (this.flushQueued) return;
    this.flushQueued = true;
    setImmediate(() => {
      this.flushQueued = false;
      void this.flush.run();
    });
  }

  /** Until recorded, a finished attempt keeps its delivery leased: it still counts as a slot. */
  private async recordFinished(): Promise<void> {
    const batch = this.finished;
    if (batch.length === 0) return;
    this.finished = [];
    const { recordAndClaim } = this.worker;
    try {
      // The batch's slots (free now) are released by its own transaction, which claims again.
      const claimed =
        this.running &&
        recordAndClaim !== undefined &&
        (await this.claiming((free) => recordAndClaim.call(this.worker, batch, free)));
      if (!claimed) await this.worker.record(batch);
      this.kind.recorded(batch);
    } catch (error) {
      this.finished.push(...batch); // tried again with the next batch; the leases still hold
      throw error;
    }
    if (this.running && recordAndClaim === undefined) void this.fill.run();
  }

  private async guard(step: string, work: () => Promise<void>): Promise<void> {
    try {
      await work();
    } catch (error) {
      const { name, message } = error as Error;
      this.logger.warn(`${this.kind.noun} ${step} failed: ${name}: ${message}`);
    }
  }
}

const WEBHOOKS: DeliveryLoopKind<WebhookAttemptResult> = {
  logger: 'Webhooks',
  noun: 'webhook',
  recorded: (results) => {
    for (const { outcome } of results) metrics.webhookAttempts.labels(outcome.state).inc();
  },
};

/** The webhooks' loop (docs/webhooks.md): the dispatcher follows the audit log. */
export class WebhookDeliveryLoop extends DeliveryLoop<ClaimedWebhookDelivery, WebhookAttemptResult> {
  constructor(
    dispatcher: DeliveryDispatcher,
    worker: DeliveryWorker<ClaimedWebhookDelivery, WebhookAttemptResult>,
    options: WebhookLoopOptions,
    sender: { close(): Promise<void> },
  ) {
    super(dispatcher, worker, options, sender, WEBHOOKS);
  }
}
