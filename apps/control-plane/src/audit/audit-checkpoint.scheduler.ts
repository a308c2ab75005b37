import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { AuditCheckpoints } from '@platform/domain';

/** How often the log is checkpointed when it has grown. */
export const AUDIT_CHECKPOINT_INTERVAL_MS = 60_000;

/**
 * Checkpoints the audit log every minute when it has grown. Every replica runs it; the stored
 * checkpoint of a tree size is whichever replica made it first.
 */
@Injectable()
export class AuditCheckpointScheduler implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(AuditCheckpointScheduler.name);
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly checkpoints: AuditCheckpoints) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.run(), AUDIT_CHECKPOINT_INTERVAL_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  private async run(): Promise<void> {
    try {
      await this.checkpoints.checkpoint();
    } catch (error) {
      this.logger.warn(`audit checkpoint failed: ${(error as Error).message}`);
    }
  }
}
