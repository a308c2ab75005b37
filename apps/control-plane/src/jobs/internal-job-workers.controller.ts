import { Body, Controller, Headers, HttpCode, Param, Post, Res } from '@nestjs/common';
import { AppendJobLogsDto, ClaimJobDto, CompleteJobDto, JobHeartbeatDto } from '@platform/contract';
import { JobQueue, type JobOutcome } from '@platform/domain';
import { closeWithServer, OpaqueBodyMembers } from '@platform/http';
import { PRINCIPAL_HEADER } from '@platform/internal';
import type { FastifyReply } from 'fastify';
import { readPrincipal } from '../tenants/principal';
import { JobSignals } from './job-signals';
import { toClaimedJobResponse, toJobResponse } from './jobs-wire';
import { InternalRoute } from '../platform/route-authority';

/** Below the backend relay's 10 s wait for an answer. */
const MAX_WAIT_SECONDS = 5;

/**
 * The worker's side of the queue (docs/jobs.md), for a caller the backend authorized for
 * `jobs.work`: claim under a lease (long poll), heartbeat, log lines, completion. The queue
 * decides again who may work where (a service principal within its reach: 403 otherwise).
 * Every call after the claim carries the lease id, and only the lease's holder may make it: a
 * lease that is gone is 409, one held by another worker 403.
 */
@Controller('internal/v1/jobs')
@InternalRoute()
export class InternalJobWorkersController {
  constructor(
    private readonly queue: JobQueue,
    private readonly signals: JobSignals,
  ) {}

  /** 200 a claimed job with its lease; 204 when none came within `wait_seconds`. */
  @Post('claim')
  @HttpCode(200)
  async claim(
    @Body() body: ClaimJobDto,
    @Headers(PRINCIPAL_HEADER) header: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const worker = readPrincipal(header);
    const deadline = Date.now() + Math.min(body.wait_seconds ?? 0, MAX_WAIT_SECONDS) * 1000;
    // The caller left, or this server is closing: the wait ends at its next look.
    let gone = false;
    reply.raw.once('close', () => (gone = true));
    const release = closeWithServer(reply.server, { close: () => (gone = true) });
    try {
      for (;;) {
        const job = await this.queue.claim(worker, body.types, {
          tenant: body.tenant,
          leaseSeconds: body.lease_seconds,
        });
        if (job && gone) {
          await this.queue.release(job);
          break;
        }
        if (job) return toClaimedJobResponse(job);
        const left = deadline - Date.now();
        if (left <= 0 || gone) break;
        await this.signals.next(left);
      }
    } finally {
      release();
    }
    void reply.status(204);
    return undefined;
  }

  @Post(':id/heartbeat')
  @HttpCode(200)
  async heartbeat(
    @Param('id') id: string,
    @Body() body: JobHeartbeatDto,
    @Headers(PRINCIPAL_HEADER) header: string | undefined,
  ) {
    const beat = await this.queue.heartbeat(readPrincipal(header), id, body.lease_id, body.lease_seconds);
    return { cancel_requested: beat.cancelRequested, lease_expires_at: beat.leaseExpiresAt.toISOString() };
  }

  @Post(':id/logs')
  @HttpCode(204)
  async logs(
    @Param('id') id: string,
    @Body() body: AppendJobLogsDto,
    @Headers(PRINCIPAL_HEADER) header: string | undefined,
  ): Promise<void> {
    await this.queue.appendLogs(readPrincipal(header), id, body.lease_id, body.lines);
  }

  @OpaqueBodyMembers('output')
  @Post(':id/complete')
  @HttpCode(200)
  async complete(
    @Param('id') id: string,
    @Body() body: CompleteJobDto,
    @Headers(PRINCIPAL_HEADER) header: string | undefined,
  ) {
    const report: JobOutcome =
      body.outcome === 'succeeded'
        ? { outcome: 'succeeded', output: body.output }
        : body.outcome === 'failed'
          ? { outcome: 'failed', message: body.error?.message ?? '', retryable: body.error?.retryable }
          : { outcome: 'cancelled' };
    return toJobResponse(await this.queue.complete(readPrincipal(header), id, body.lease_id, report));
  }
}
