import { Injectable, type BeforeApplicationShutdown } from '@nestjs/common';

/**
 * Graceful shutdown: at SIGTERM the process first says it is not ready (readiness probes answer
 * 503, so the orchestrator and load balancers stop sending), keeps serving for `drainMs`, and
 * only then lets Nest close the server, which finishes the requests in flight.
 */
@Injectable()
export class Drain implements BeforeApplicationShutdown {
  private started = false;

  constructor(private readonly drainMs: number) {}

  get draining(): boolean {
    return this.started;
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.started = true;
    if (this.drainMs > 0) await new Promise((resolve) => setTimeout(resolve, this.drainMs));
  }
}
