import { Body, Controller, Param, Res } from '@nestjs/common';
import {
  AppendJobLogsDto,
  ClaimJobDto,
  ClaimJobsDto,
  CompleteJobDto,
  CompleteJobsDto,
  type ClaimedJobsDto,
  JOB_WORKER_OPERATIONS,
  JobHeartbeatDto,
  type JobCompletionResultsDto,
} from '@platform/contract';
import { type ActingPrincipal, type Job, JobQueue, type JobOutcome } from '@platform/domain';
import { closeWithServer } from '@platform/http';
import type { FastifyReply } from 'fastify';
import { Implements } from '../platform/implements';
import { Caller } from '../tenants/principal';
import { JobSignals } from './job-signals';
import { toClaimedJobResponse, toJobResponse, toRefusal } from './jobs-wire';

/** Below the backend relay's 10 s wait for an answer. */
const MAX_WAIT_SECONDS = 5;

/**
 * The worker's side of the queue (docs/jobs.md), for a caller the backend authorized for
 * `jobs.work`: claim under a lease (long poll), heartbeat, log lines, completion. The queue
 * decides again who may work where (a service principal within its reach: 403 otherwise).
 * Every call after the claim carries the lease id, and only the lease's holder may make it: a
 * lease that is gone is 409, one held by another worker 403.
 */
@Controller()
export class InternalJobWorkersController {
  constructor(
    private readonly queue: JobQueue,
    private readonly signals: JobSignals,
  ) {}

  /** 200 a claimed job with its lease; 204 when none came within `wait_seconds`. */
  @Implements(JOB_WORKER_OPERATIONS.claim)
  async claim(
    @Body() body: ClaimJobDto,
    @Caller() worker: ActingPrincipal,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const [job] = await this.waitForJobs(body, worker, reply, 1);
    if (job) return toClaimedJobResponse(job);
    void reply.status(204);
    return undefined;
  }

  /** Up to `max_jobs` claimed jobs; none when none came within `wait_seconds`. */
  @Implements(JOB_WORKER_OPERATIONS.claimMany)
  async claimMany(
    @Body() body: ClaimJobsDto,
    @Caller() worker: ActingPrincipal,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ClaimedJobsDto> {
    const jobs = await this.waitForJobs(body, worker, reply, body.max_jobs ?? 1);
    return { jobs: jobs.map(toClaimedJobResponse) };
  }

  @Implements(JOB_WORKER_OPERATIONS.heartbeat)
  async heartbeat(@Param('id') id: string, @Body() body: JobHeartbeatDto, @Caller() worker: ActingPrincipal) {
    const beat = await this.queue.heartbeat(worker, id, body.lease_id, body.lease_seconds);
    return { cancel_requested: beat.cancelRequested, lease_expires_at: beat.leaseExpiresAt.toISOString() };
  }

  @Implements(JOB_WORKER_OPERATIONS.logs)
  async logs(
    @Param('id') id: string,
    @Body() body: AppendJobLogsDto,
    @Caller() worker: ActingPrincipal,
  ): Promise<void> {
    await this.queue.appendLogs(worker, id, body.lease_id, body.lines);
  }

  @Implements(JOB_WORKER_OPERATIONS.complete)
  async complete(@Param('id') id: string, @Body() body: CompleteJobDto, @Caller() worker: ActingPrincipal) {
    return toJobResponse(await this.queue.complete(worker, id, body.lease_id, outcomeOf(body)));
  }

  @Implements(JOB_WORKER_OPERATIONS.completeMany)
  async completeMany(
    @Body() body: CompleteJobsDto,
    @Caller() worker: ActingPrincipal,
  ): Promise<JobCompletionResultsDto> {
    const results = await this.queue.completeMany(
      worker,
      body.completions.map((c) => ({ id: c.id, leaseId: c.lease_id, report: outcomeOf(c) })),
    );
    return {
      results: results.map((result) =>
        'error' in result
          ? { id: result.id, refused: toRefusal(result.error) }
          : { id: result.id, state: result.job.state },
      ),
    };
  }

  /**
   * Claims up to `max` jobs, waiting up to `wait_seconds` (long poll) for the first; a job
   * claimed for a caller that left, or while this server closes, goes back to the queue.
   */
  private async waitForJobs(
    body: ClaimJobDto,
    worker: ActingPrincipal,
    reply: FastifyReply,
    max: number,
  ): Promise<Job[]> {
    const deadline = Date.now() + Math.min(body.wait_seconds ?? 0, MAX_WAIT_SECONDS) * 1000;
    // The caller left, or this server is closing: the wait ends at its next look.
    let gone = false;
    reply.raw.once('close', () => (gone = true));
    const release = closeWithServer(reply.server, { close: () => (gone = true) });
    try {
      for (;;) {
        const jobs = await this.queue.claimMany(worker, body.types, {
          tenant: body.tenant,
          leaseSeconds: body.lease_seconds,
          max,
        });
        if (jobs.length > 0 && gone) {
          for (const job of jobs) await this.queue.release(job);
          return [];
        }
        if (jobs.length > 0) return jobs;
        const left = deadline - Date.now();
        if (left <= 0 || gone) return [];
        await this.signals.next(left);
      }
    } finally {
      release();
    }
  }
}

function outcomeOf(body: CompleteJobDto): JobOutcome {
  return body.outcome === 'succeeded'
    ? { outcome: 'succeeded', output: body.output }
    : body.outcome === 'failed'
      ? { outcome: 'failed', message: body.error?.message ?? '', retryable: body.error?.retryable }
      : { outcome: 'cancelled' };
}
