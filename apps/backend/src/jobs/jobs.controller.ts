import { applyDecorators, Controller, Get, Post, Req, Res } from '@nestjs/common';
import { ApiParam, ApiQuery } from '@nestjs/swagger';
import {
  Answers,
  JobDto,
  JobEventsQueryDto,
  JobLogPageDto,
  JobPageDto,
  JobTransitionPageDto,
  JsonBody,
  ListJobsQueryDto,
  LIVE_STREAM_END,
  PermissionOperation,
  Refuses,
  SubmitJobDto,
} from '@platform/contract';
import type { FastifyReply } from 'fastify';
import { OpaqueBodyMembers } from '@platform/http';
import { asPrincipal, type AuthorizedRequest, RequirePermission } from '../auth/permission';
import { ControlPlaneRelay } from '../forwarding/control-plane-relay';

const TO = '/internal/v1/tenants/:tenant/jobs';
const NO_JOB = 'No such job in the tenant.';
const READ = 'Permission `jobs.read` on `{tenant}`.';
const Tenant = () => ApiParam({ name: 'tenant', required: true, example: 'acme' });
const JobPath = () => applyDecorators(Tenant(), ApiParam({ name: 'id', required: true }));

/** A tenant's jobs (docs/jobs.md): submitted and cancelled with `jobs.write`, read with `jobs.read`. */
@Controller('api/v1/tenants/:tenant/jobs')
export class JobsController {
  constructor(private readonly relay: ControlPlaneRelay) {}

  @Post()
  @RequirePermission('jobs.write', { tenantParam: 'tenant' })
  @PermissionOperation({
    id: 'submitJob',
    tag: 'Jobs',
    summary: 'Submit a job',
    description:
      'Permission `jobs.write` on `{tenant}`. Queues the job for a worker of its type: at least once, retried with backoff while attempts remain, ended TIMED_OUT past its timeout. With `idempotency_key`, a second submission answers the first job (**200**) rather than queueing another. Audited (`job.submitted`).',
  })
  @Tenant()
  @OpaqueBodyMembers('payload')
  @JsonBody(SubmitJobDto)
  @Answers(201, JobDto, 'Queued.')
  @Answers(200, JobDto, 'The job an earlier submission with the same idempotency key made.')
  @Refuses(400, 'A bad type, payload over 32 KiB, limits out of range.')
  @Refuses(409, 'The idempotency key was used for other work.')
  submit(@Req() request: AuthorizedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.relay.forward(request, reply, { to: TO, body: 'json', ...asPrincipal });
  }

  @Get()
  @RequirePermission('jobs.read', { tenantParam: 'tenant' })
  @PermissionOperation({
    id: 'listJobs',
    tag: 'Jobs',
    summary: 'A tenant’s jobs',
    description: `${READ} Oldest first, by state and type, paged.`,
  })
  @Tenant()
  @ApiQuery({ type: ListJobsQueryDto })
  @Answers(200, JobPageDto, 'One page.')
  @Refuses(400, 'A malformed filter.')
  list(@Req() request: AuthorizedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.relay.forward(request, reply, {
      to: TO,
      query: ['state', 'type', 'after', 'limit'],
      ...asPrincipal,
    });
  }

  @Get(':id')
  @RequirePermission('jobs.read', { tenantParam: 'tenant' })
  @PermissionOperation({ id: 'getJob', tag: 'Jobs', summary: 'A job', description: READ })
  @JobPath()
  @Answers(200, JobDto, 'The job.')
  @Refuses(404, NO_JOB)
  get(@Req() request: AuthorizedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.relay.forward(request, reply, { to: `${TO}/:id`, ...asPrincipal });
  }

  @Post(':id/cancel')
  @RequirePermission('jobs.write', { tenantParam: 'tenant' })
  @PermissionOperation({
    id: 'cancelJob',
    tag: 'Jobs',
    summary: 'Cancel a job',
    description:
      'Permission `jobs.write` on `{tenant}`. A queued job is CANCELLED at once; a running one becomes CANCELLING and its worker learns at its next heartbeat. Audited (`job.cancel_requested`).',
  })
  @JobPath()
  @Answers(200, JobDto, 'The job as it is now.')
  @Refuses(404, NO_JOB)
  @Refuses(409, 'The job has already ended.')
  cancel(@Req() request: AuthorizedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.relay.forward(request, reply, { to: `${TO}/:id/cancel`, ...asPrincipal });
  }

  @Get(':id/output')
  @RequirePermission('jobs.read', { tenantParam: 'tenant' })
  @PermissionOperation({
    id: 'getJobOutput',
    tag: 'Jobs',
    summary: 'The result of a job that ended',
    description: `${READ} \`output\` when it SUCCEEDED, \`error\` otherwise.`,
  })
  @JobPath()
  @Answers(200, JobDto, 'The ended job with its output or error.')
  @Refuses(404, NO_JOB)
  @Refuses(409, 'The job has not ended yet.')
  output(@Req() request: AuthorizedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.relay.forward(request, reply, { to: `${TO}/:id/output`, ...asPrincipal });
  }

  @Get(':id/transitions')
  @RequirePermission('jobs.read', { tenantParam: 'tenant' })
  @PermissionOperation({
    id: 'watchJob',
    tag: 'Jobs',
    summary: 'The states a job went through (watch it live)',
    description: `${READ} Or live, with \`Accept: text/event-stream\`: every state so far, then each transition (\`event: job_transition\`), the stream ending once the job has ended. ${LIVE_STREAM_END}`,
  })
  @JobPath()
  @ApiQuery({ type: JobEventsQueryDto })
  @Answers(200, JobTransitionPageDto, 'The transitions.')
  @Refuses(404, NO_JOB)
  transitions(@Req() request: AuthorizedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.relay.forward(request, reply, {
      to: `${TO}/:id/transitions`,
      query: ['after', 'limit'],
      live: true,
      ...asPrincipal,
    });
  }

  @Get(':id/logs')
  @RequirePermission('jobs.read', { tenantParam: 'tenant' })
  @PermissionOperation({
    id: 'getJobLogs',
    tag: 'Jobs',
    summary: 'A job’s log lines (follow them live)',
    description: `${READ} Paged by \`after\`; \`done\` says no line will follow. Or live, with \`Accept: text/event-stream\` (\`event: job_log\`), ending once the job has ended. ${LIVE_STREAM_END}`,
  })
  @JobPath()
  @ApiQuery({ type: JobEventsQueryDto })
  @Answers(200, JobLogPageDto, 'One page of lines.')
  @Refuses(404, NO_JOB)
  logs(@Req() request: AuthorizedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.relay.forward(request, reply, {
      to: `${TO}/:id/logs`,
      query: ['after', 'limit'],
      live: true,
      ...asPrincipal,
    });
  }
}
