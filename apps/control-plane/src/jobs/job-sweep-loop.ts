import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { BackgroundLoop, JobQueue } from '@platform/domain';

const SWEEP_MS = 1_000;

/**
 * Every second, the queue's sweep: jobs past their timeout end TIMED_OUT, jobs whose worker
 * stopped renewing the lease are taken back (docs/jobs.md). Each replica runs it; every change
 * it makes is guarded by the lease it found, so two replicas never both act on one job.
 */
@Injectable()
export class JobSweepLoop implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly log = new Logger('JobSweep');
  private readonly loop = new BackgroundLoop({
    what: 'sweep',
    run: () => this.sweep(),
    everyMs: SWEEP_MS,
    logger: this.log,
  });

  constructor(private readonly queue: JobQueue) {}

  onApplicationBootstrap(): void {
    this.loop.start();
  }

  onApplicationShutdown(): Promise<void> {
    return this.loop.stop();
  }

  private async sweep(): Promise<void> {
    const swept = await this.queue.sweep();
    if (swept > 0) this.log.log(`took back or ended ${swept} overdue job(s)`);
  }
}
