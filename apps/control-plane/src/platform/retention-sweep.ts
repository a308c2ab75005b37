import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import {
  BackgroundLoop,
  RetentionSweep,
  type Clock,
  type RetentionCounts,
  type Stores,
} from '@platform/domain';
import type { PlatformConfig } from '@platform/config';
import { metrics } from '@platform/telemetry';
import { CLOCK, PLATFORM_CONFIG, STORES } from './tokens';

/** How often the sweep runs; every replica runs it, and deleting what another deleted is harmless. */
export const RETENTION_SWEEP_MS = 5 * 60_000;

/**
 * Runs the retention sweep of libs/domain on a timer (docs/operations.md, "Retention"): a log
 * line and the `platform_retention_deleted_rows_total` counter say what each run deleted.
 */
@Injectable()
export class RetentionSweepLoop implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Retention');
  private readonly sweep: RetentionSweep;
  private readonly loop = new BackgroundLoop({
    what: 'retention sweep',
    run: () => this.run(),
    everyMs: RETENTION_SWEEP_MS,
    logger: this.logger,
    describe: (error) => error.name,
  });

  constructor(
    @Inject(PLATFORM_CONFIG) config: PlatformConfig,
    @Inject(STORES) stores: Stores,
    @Inject(CLOCK) clock: Clock,
  ) {
    this.sweep = new RetentionSweep(stores, clock, config.retention);
  }

  onApplicationBootstrap(): void {
    this.loop.start();
  }

  onApplicationShutdown(): Promise<void> {
    return this.loop.stop();
  }

  /** One sweep, reported; the loop logs a failure by name, and the next run tries again. */
  async run(): Promise<RetentionCounts> {
    const counts = await this.sweep.run();
    const deleted = Object.entries(counts).filter(([, rows]) => rows > 0);
    for (const [table, rows] of deleted) metrics.retentionDeletedRows.labels(table).inc(rows);
    const summary = Object.entries(counts)
      .map(([table, rows]) => `${table}=${rows}`)
      .join(' ');
    if (deleted.length > 0) this.logger.log(`retention sweep deleted ${summary}`);
    else this.logger.debug(`retention sweep deleted nothing`);
    return counts;
  }
}
