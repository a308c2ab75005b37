import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { JobQueue } from '@platform/domain';

const SWEEP_MS = 1_000;

/**
 * Every second, the queue's sweep: jobs past their timeout end TIMED_OUT, jobs whose worker
 * stopped renewing the lease are taken back (docs/jobs.md). Each replica runs it; every change
 * it makes is guarded by the lease it found, so two replicas never both act on one job.
 */
@Injectable()
export class JobSweepLoop implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly log = new Logger('JobSweep');
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(private readonly queue: JobQueue) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      this.running ??= this.queue
        .sweep()
        .then((swept) => {
          if (swept > 0) this.log.log(`took back or ended ${swept} overdue job(s)`);
        })
        .catch((error: Error) => this.log.warn(`sweep failed: ${error.message}`))
        .finally(() => (this.running = undefined));
    }, SWEEP_MS);
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}
