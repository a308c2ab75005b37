import { PlatformError } from './errors';
import type { PlatformClient } from './platform-client';
import type { ClaimedJob, JobHeartbeatAnswer } from './wire';

/** Throw it from a handler for a failure that another attempt would not mend (no retry). */
export class PermanentJobError extends Error {
  override name = 'PermanentJobError';
}

export interface JobContext {
  job: ClaimedJob;
  /** Aborts when the job is cancelled, its lease is lost, or the worker stops hard: stop then. */
  signal: AbortSignal;
  /** Appends lines to the job's log. */
  log(...lines: string[]): Promise<void>;
}

export interface JobWorkerOptions {
  /** The job types this worker runs. */
  types: string[];
  /** Runs one job; what it answers is the job's output. */
  handler: (payload: unknown, context: JobContext) => Promise<unknown>;
  /** Jobs run at once (default 1). */
  concurrency?: number;
  /** The lease asked for (default 30 s); heartbeats renew it every third of it. */
  leaseSeconds?: number;
  /** Only jobs of this tenant; without it, the app's own tenant when it is bound, else every tenant. */
  tenant?: string;
  /** Told of what went wrong outside a handler (a claim that failed); the loop goes on. */
  onError?: (error: unknown) => void;
}

const CLAIM_WAIT_SECONDS = 5;
const RETRY_AFTER_ERROR_MS = 1_000;

/**
 * The worker's loop (docs/jobs.md): claims jobs of its types (long poll), runs the handler with
 * the lease renewed by heartbeat, and reports how it ended: its answer as the output; an error
 * as a failure the queue retries (a `PermanentJobError`: not retried); a cancellation, learned
 * at a heartbeat, aborts `context.signal`. `stop()` claims nothing more and waits for the jobs
 * in hand to finish.
 */
export class JobWorker {
  private running = false;
  private loops: Array<Promise<void>> = [];
  private readonly stopping = new AbortController();
  private readonly leaseSeconds: number;

  constructor(
    private readonly client: PlatformClient,
    private readonly options: JobWorkerOptions,
  ) {
    this.leaseSeconds = options.leaseSeconds ?? 30;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loops = Array.from({ length: this.options.concurrency ?? 1 }, () => this.loop());
  }

  /** Graceful: no new claim; resolves when every job in hand has been reported. */
  async stop(): Promise<void> {
    this.running = false;
    this.stopping.abort();
    await Promise.all(this.loops);
  }

  private async loop(): Promise<void> {
    while (this.running) {
      try {
        const job = await this.client.json<ClaimedJob | undefined>('/api/v1/jobs/claim', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            types: this.options.types,
            tenant: this.options.tenant,
            lease_seconds: this.leaseSeconds,
            wait_seconds: CLAIM_WAIT_SECONDS,
          }),
          signal: this.stopping.signal,
        });
        if (job) await this.run(job);
      } catch (error) {
        if (!this.running) return;
        this.options.onError?.(error);
        await new Promise((resolve) => setTimeout(resolve, RETRY_AFTER_ERROR_MS));
      }
    }
  }

  private async run(job: ClaimedJob): Promise<void> {
    const path = `/api/v1/jobs/${encodeURIComponent(job.id)}`;
    const post = <T>(suffix: string, body: object) =>
      this.client.json<T>(`${path}/${suffix}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ lease_id: job.lease.id, ...body }),
      });
    const aborted = new AbortController();
    let leaseLost = false;
    const beat = setInterval(
      () => {
        post<JobHeartbeatAnswer>('heartbeat', { lease_seconds: this.leaseSeconds }).then(
          (answer) => {
            if (answer.cancel_requested) aborted.abort(new Error('the job was cancelled'));
          },
          (error: unknown) => {
            // 409: the lease is gone; 403: this worker may no longer work the job.
            if (error instanceof PlatformError && (error.status === 409 || error.status === 403)) {
              leaseLost = true;
              aborted.abort(new Error('the lease on the job was lost'));
            }
          },
        );
      },
      (this.leaseSeconds * 1000) / 3,
    );
    const context: JobContext = {
      job,
      signal: aborted.signal,
      log: async (...lines) => {
        await post('logs', { lines });
      },
    };
    try {
      const output = await this.options.handler(job.payload, context);
      if (!leaseLost) await post('complete', { outcome: 'succeeded', output: output ?? null });
    } catch (error) {
      if (leaseLost) return;
      const report = aborted.signal.aborted
        ? { outcome: 'cancelled' }
        : {
            outcome: 'failed',
            error: {
              message: error instanceof Error ? error.message : String(error),
              retryable: !(error instanceof PermanentJobError),
            },
          };
      await post('complete', report).catch((failure: unknown) => this.options.onError?.(failure));
    } finally {
      clearInterval(beat);
    }
  }
}
