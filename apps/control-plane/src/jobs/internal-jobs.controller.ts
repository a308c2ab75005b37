import { Body, Controller, Param, Query, Res } from '@nestjs/common';
import {
  DEFAULT_PAGE_SIZE,
  JOB_OPERATIONS,
  JobEventsQueryDto,
  type JobSubmissionResultsDto,
  ListJobsQueryDto,
  SubmitJobDto,
  SubmitJobsDto,
} from '@platform/contract';
import {
  type ActingPrincipal,
  FINAL_JOB_STATES,
  type JobEvent,
  JobQueue,
  type JobState,
  type JobSubmission,
} from '@platform/domain';
import { followFeed, liveReplyOf } from '@platform/http';
import type { FastifyReply } from 'fastify';
import { Implements, ImplementsLive } from '../platform/implements';
import { Caller } from '../tenants/principal';
import { toJobResponse, toLogLine, toLogPage, toRefusal, toTransition, toTransitionPage } from './jobs-wire';

/**
 * A tenant's jobs (docs/jobs.md) for a caller the backend or a sidecar already authorized
 * (`jobs.write` to submit and cancel, `jobs.read` to read), named in `x-platform-principal`.
 */
@Controller()
export class InternalJobsController {
  constructor(private readonly queue: JobQueue) {}

  /** 201 a new job; 200 the job an earlier submission with the same idempotency key made. */
  @Implements(JOB_OPERATIONS.submit)
  async submit(
    @Param('tenant') tenant: string,
    @Body() body: SubmitJobDto,
    @Caller() caller: ActingPrincipal,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const { job, created } = await this.queue.submit(caller, tenant, submissionOf(body));
    void reply.status(created ? 201 : 200);
    return toJobResponse(job);
  }

  @Implements(JOB_OPERATIONS.submitMany)
  async submitMany(
    @Param('tenant') tenant: string,
    @Body() body: SubmitJobsDto,
    @Caller() caller: ActingPrincipal,
  ): Promise<JobSubmissionResultsDto> {
    const results = await this.queue.submitMany(caller, tenant, body.jobs.map(submissionOf));
    return {
      results: results.map((result) =>
        'error' in result
          ? { refused: toRefusal(result.error) }
          : { job: toJobResponse(result.job), created: result.created },
      ),
    };
  }

  @Implements(JOB_OPERATIONS.list)
  async list(
    @Param('tenant') tenant: string,
    @Query() query: ListJobsQueryDto,
    @Caller() caller: ActingPrincipal,
  ) {
    const limit = query.limit ?? DEFAULT_PAGE_SIZE;
    const jobs = await this.queue.list(caller, {
      tenant,
      state: query.state as JobState | undefined,
      type: query.type,
      after: query.after,
      limit,
    });
    return {
      jobs: jobs.map(toJobResponse),
      next_after: jobs.length === limit ? (jobs.at(-1)?.id ?? null) : null,
    };
  }

  @Implements(JOB_OPERATIONS.get)
  async get(@Param('tenant') tenant: string, @Param('id') id: string, @Caller() caller: ActingPrincipal) {
    return toJobResponse(await this.queue.get(caller, tenant, id));
  }

  @Implements(JOB_OPERATIONS.cancel)
  async cancel(@Param('tenant') tenant: string, @Param('id') id: string, @Caller() caller: ActingPrincipal) {
    return toJobResponse(await this.queue.cancel(caller, tenant, id));
  }

  /** A job that has ended: its output or error; 409 while it runs. */
  @Implements(JOB_OPERATIONS.output)
  async output(@Param('tenant') tenant: string, @Param('id') id: string, @Caller() caller: ActingPrincipal) {
    return toJobResponse(await this.queue.result(caller, tenant, id));
  }

  /** The states the job went through; live (SSE, `event: job_transition`) until it ends. */
  @ImplementsLive(JOB_OPERATIONS.transitions)
  async transitions(
    @Param('tenant') tenant: string,
    @Param('id') id: string,
    @Query() query: JobEventsQueryDto,
    @Caller() principal: ActingPrincipal,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const after = query.after ?? 0;
    const live = liveReplyOf(reply);
    if (live) {
      const page = (cursor: number) => this.queue.transitions(principal, tenant, id, cursor);
      return this.follow(reply, live, { principal, tenant, id }, 'job_transition', page, toTransition, after);
    }
    return toTransitionPage(await this.queue.transitions(principal, tenant, id, after), after);
  }

  /** Log lines, paged; live (SSE, `event: job_log`) until the job ends. */
  @ImplementsLive(JOB_OPERATIONS.logs)
  async logs(
    @Param('tenant') tenant: string,
    @Param('id') id: string,
    @Query() query: JobEventsQueryDto,
    @Caller() principal: ActingPrincipal,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const after = query.after ?? 0;
    const live = liveReplyOf(reply);
    if (live) {
      const page = (cursor: number, size: number) => this.queue.logs(principal, tenant, id, cursor, size);
      return this.follow(reply, live, { principal, tenant, id }, 'job_log', page, toLogLine, after);
    }
    const limit = query.limit ?? DEFAULT_PAGE_SIZE;
    const done = await this.ended(principal, tenant, id);
    const lines = await this.queue.logs(principal, tenant, id, after, limit);
    return toLogPage(lines, after, done && lines.length < limit);
  }

  /**
   * A job's events as Server-Sent Events, from `after` until the job has ended; an unknown job
   * or another tenant's is refused before the stream starts.
   */
  private async follow(
    reply: FastifyReply,
    live: NonNullable<ReturnType<typeof liveReplyOf>>,
    job: { principal: ActingPrincipal; tenant: string; id: string },
    event: string,
    page: (cursor: number, size: number) => Promise<JobEvent[]>,
    toData: (event: JobEvent) => unknown,
    after: number,
  ): Promise<void> {
    await this.queue.get(job.principal, job.tenant, job.id);
    const feed = {
      page,
      idOf: (item: JobEvent) => item.id,
      event,
      toData,
      finished: () => this.ended(job.principal, job.tenant, job.id),
    };
    return followFeed(reply, live, feed, after, { caller: `${job.principal.kind}:${job.principal.id}` });
  }

  private async ended(principal: ActingPrincipal, tenant: string, id: string): Promise<boolean> {
    return FINAL_JOB_STATES.includes((await this.queue.get(principal, tenant, id)).state);
  }
}

function submissionOf(body: SubmitJobDto): JobSubmission {
  return {
    type: body.type,
    payload: body.payload,
    idempotencyKey: body.idempotency_key,
    timeoutSeconds: body.timeout_seconds,
    retry: {
      ...(body.max_attempts !== undefined && { maxAttempts: body.max_attempts }),
      ...(body.initial_backoff_seconds !== undefined && {
        initialBackoffSeconds: body.initial_backoff_seconds,
      }),
      ...(body.max_backoff_seconds !== undefined && { maxBackoffSeconds: body.max_backoff_seconds }),
    },
  };
}
