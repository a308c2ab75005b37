import { PlatformError } from './errors';
import type { PlatformClient } from './platform-client';
import type {
  ClaimedJob,
  ClaimedJobs,
  JobCompletionReport,
  JobCompletionResult,
  JobCompletionResults,
  JobHeartbeatAnswer,
} from './wire';

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
/** The most jobs one claim takes and one call completes (the platform's bound). */
const MAX_JOBS_PER_CALL = 100;

type CompletionReport = Omit<JobCompletionReport, 'id' | 'lease_id'>;

/**
 * The worker's loop (docs/jobs.md): claims as many jobs of its types as it has free slots
 * (long poll), runs the handler on each with the lease renewed by heartbeat, and reports how
 * each ended: its answer as the output; an error as a failure the queue retries (a
 * `PermanentJobError`: not retried); a cancellation, learned at a heartbeat, aborts
 * `context.signal`. Reports that come together go in one call. `stop()` claims nothing more and
 * waits for the jobs in hand to be reported.
 */
export class JobWorker {
  private running = false;
  private claiming: Promise<void> = Promise.resolve();
  private readonly inHand = new Set<Promise<void>>();
  private readonly stopping = new AbortController();
  private readonly leaseSeconds: number;
  private readonly concurrency: number;
  private readonly completions: CompletionBatch;

  constructor(
    private readonly client: PlatformClient,
    private readonly options: JobWorkerOptions,
  ) {
    this.leaseSeconds = options.leaseSeconds ?? 30;
    this.concurrency = options.concurrency ?? 1;
    this.completions = new CompletionBatch(client);
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.claiming = this.claimLoop();
  }

  /** Graceful: no new claim; resolves when every job in hand has been reported. */
  async stop(): Promise<void> {
    this.running = false;
    this.stopping.abort();
    await this.claiming;
    await Promise.all(this.inHand);
  }

  private async claimLoop(): Promise<void> {
    while (this.running) {
      if (this.inHand.size >= this.concurrency) {
        await Promise.race(this.inHand);
        // Jobs that end together free their slots together: one claim for all of them.
        await new Promise((resolve) => setImmediate(resolve));
        continue;
      }
      try {
        // 204 (no body): the backend asked is draining; nothing was claimed, ask again.
        const claimed = await this.client.json<ClaimedJobs | undefined>('/api/v1/jobs/claims', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            types: this.options.types,
            tenant: this.options.tenant,
            lease_seconds: this.leaseSeconds,
            wait_seconds: CLAIM_WAIT_SECONDS,
            max_jobs: Math.min(this.concurrency - this.inHand.size, MAX_JOBS_PER_CALL),
          }),
          signal: this.stopping.signal,
        });
        for (const job of claimed?.jobs ?? []) {
          const running: Promise<void> = this.run(job).finally(() => this.inHand.delete(running));
          this.inHand.add(running);
        }
      } catch (error) {
        if (!this.running) return;
        this.options.onError?.(error);
        await new Promise((resolve) => setTimeout(resolve, RETRY_AFTER_ERROR_MS));
      }
    }
  }

  /** Runs one job to its report; never throws (what goes wrong goes to `onError`). */
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
    let report: CompletionReport;
    try {
      const output = await this.options.handler(job.payload, context);
      report = { outcome: 'succeeded', output: output ?? null };
    } catch (error) {
      report = aborted.signal.aborted
        ? { outcome: 'cancelled' }
        : {
            outcome: 'failed',
            error: {
              message: error instanceof Error ? error.message : String(error),
              retryable: !(error instanceof PermanentJobError),
            },
          };
    } finally {
      clearInterval(beat);
    }
    if (leaseLost) return;
    try {
      await this.completions.report({ id: job.id, lease_id: job.lease.id, ...report });
    } catch (error) {
      this.options.onError?.(error);
    }
  }
}

/**
 * Completion reports gathered while a call is on its way (and within one turn of the event
 * loop), sent together; each report's promise settles with its own result, a refusal as the
 * `PlatformError` the single call would have thrown.
 */
class CompletionBatch {
  private pending: Array<{
    report: JobCompletionReport;
    settle: (result: JobCompletionResult | Error) => void;
  }> = [];
  private sending = false;

  constructor(private readonly client: PlatformClient) {}

  report(report: JobCompletionReport): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.pending.push({
        report,
        settle: (result) => {
          if (result instanceof Error) reject(result);
          else if (result.refused) {
            const { status, detail } = result.refused;
            reject(
              new PlatformError(
                `job ${report.id}: ${status} ${detail}`,
                status,
                result.refused,
                new Headers(),
              ),
            );
          } else resolve();
        },
      });
      if (!this.sending) {
        this.sending = true;
        setImmediate(() => void this.send());
      }
    });
  }

  private async send(): Promise<void> {
    while (this.pending.length > 0) {
      const batch = this.pending.splice(0, MAX_JOBS_PER_CALL);
      try {
        const { results } = await this.client.json<JobCompletionResults>('/api/v1/jobs/completions', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ completions: batch.map((item) => item.report) }),
        });
        batch.forEach((item, i) => item.settle(results[i]));
      } catch (error) {
        for (const item of batch) item.settle(error instanceof Error ? error : new Error(String(error)));
      }
    }
    this.sending = false;
  }
}
