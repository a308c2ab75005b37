import { randomUUID } from 'node:crypto';
import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { BackgroundLoop, QuotaLedger } from '@platform/domain';
import type { RedisQuotaCounter } from '@platform/ratelimit';
import { QuotaCounting } from './quota-counting';

const BATCH = 500;
const BLOCK_MS = 250;
/** Batches per run: the loop's stop waits for one run, so a run ends even under steady load. */
const BATCHES_PER_RUN = 20;

/**
 * Makes every grant Redis counted durable (docs/plans.md, "Counting"): reads the journal as one
 * consumer of the control planes' group, records a batch in one transaction, then acknowledges
 * it. A control plane killed between the two leaves the batch pending; it is read again (by this
 * replica's next incarnation or another after 5 s) and recorded once, by its keys.
 */
@Injectable()
export class QuotaJournalDrain implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('QuotaJournal');
  private readonly consumer = `control-plane-${randomUUID()}`;
  private readonly loop = new BackgroundLoop({
    what: 'quota journal drain',
    run: () => this.drain(),
    everyMs: 10,
    logger: this.logger,
  });
  /** Entries made durable since start, for tests and metrics. */
  recorded = 0;

  constructor(
    private readonly counting: QuotaCounting,
    private readonly ledger: QuotaLedger,
  ) {}

  onApplicationBootstrap(): void {
    if (this.counting.redis !== undefined) this.loop.start();
  }

  onApplicationShutdown(): Promise<void> {
    return this.loop.stop();
  }

  private async drain(): Promise<void> {
    const redis = this.counting.redis as RedisQuotaCounter;
    for (let batch = 0; batch < BATCHES_PER_RUN; batch++) {
      const entries = await redis.readJournal(this.consumer, BATCH, BLOCK_MS);
      if (entries.length === 0) return;
      await this.ledger.recordAll(
        entries.map((entry) => ({
          tenant: entry.tenant,
          meter: entry.meter,
          units: entry.units,
          idempotencyKey: entry.idempotencyKey,
          window: { start: entry.windowStart, end: entry.windowEnd },
          quota: { limit: entry.limit, thresholds: entry.thresholds },
          at: entry.at,
        })),
      );
      await redis.acknowledge(entries.map((entry) => entry.id));
      this.recorded += entries.length;
    }
  }
}
