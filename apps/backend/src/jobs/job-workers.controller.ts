import { Controller, Post, Req, Res } from '@nestjs/common';
import { ApiParam, ApiResponse } from '@nestjs/swagger';
import {
  AppendJobLogsDto,
  Answers,
  ClaimedJobDto,
  ClaimJobDto,
  CompleteJobDto,
  JobDto,
  JobHeartbeatAnswerDto,
  JobHeartbeatDto,
  JsonBody,
  PermissionOperation,
  Refuses,
} from '@platform/contract';
import type { FastifyReply } from 'fastify';
import { OpaqueBodyMembers } from '@platform/http';
import { asPrincipal, type AuthorizedRequest, RequirePermission } from '../auth/permission';
import { ControlPlaneRelay } from '../forwarding/control-plane-relay';

const TO = '/internal/v1/jobs';
const WORK =
  'Permission `jobs.work`: a worker, a service app with its own credentials (never a user token), within its reach (an app bound to a tenant works that tenant’s jobs only).';
const HOLDER = 'Only the worker that claimed the job, as it claimed it, may call with its lease id.';
const LEASE_GONE =
  'The lease is gone (it expired and the job went back to the queue or to another worker, or the job ended): stop working on it.';
const Id = () => ApiParam({ name: 'id', required: true });

/** The worker's side of the queue (docs/jobs.md; the SDK's `JobWorker` drives it). */
@Controller('api/v1/jobs')
export class JobWorkersController {
  constructor(private readonly relay: ControlPlaneRelay) {}

  @Post('claim')
  @RequirePermission('jobs.work', { tenantBody: 'tenant' })
  @PermissionOperation({
    id: 'claimJob',
    tag: 'Jobs',
    summary: 'Claim the next job of the types a worker runs',
    description: `${WORK} The oldest queued job of one of \`types\` whose backoff has passed, RUNNING under a lease for this worker; no two workers hold one job at once. From \`tenant\` when named (refused outside the worker’s reach), else from the worker’s own tenant when it is bound to one, else from every tenant. Waits up to \`wait_seconds\` for one (long poll).`,
  })
  @JsonBody(ClaimJobDto)
  @Answers(200, ClaimedJobDto, 'A job with its lease.')
  @ApiResponse({ status: 204, description: 'None within `wait_seconds`.' })
  @Refuses(400, 'No types, a malformed type, a lease out of range.')
  claim(@Req() request: AuthorizedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.relay.forward(request, reply, {
      to: `${TO}/claim`,
      body: 'json',
      longPoll: true,
      ...asPrincipal,
    });
  }

  @Post(':id/heartbeat')
  @RequirePermission('jobs.work', { callerTenant: true })
  @PermissionOperation({
    id: 'heartbeatJob',
    tag: 'Jobs',
    summary: 'Renew a job’s lease',
    description: `${WORK} ${HOLDER} Answers whether the job is being cancelled.`,
  })
  @Id()
  @JsonBody(JobHeartbeatDto)
  @Answers(200, JobHeartbeatAnswerDto, 'Renewed.')
  @Refuses(404, 'No such job.')
  @Refuses(409, LEASE_GONE)
  heartbeat(@Req() request: AuthorizedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.relay.forward(request, reply, { to: `${TO}/:id/heartbeat`, body: 'json', ...asPrincipal });
  }

  @Post(':id/logs')
  @RequirePermission('jobs.work', { callerTenant: true })
  @PermissionOperation({
    id: 'appendJobLogs',
    tag: 'Jobs',
    summary: 'Append log lines to a job',
    description: `${WORK} ${HOLDER}`,
  })
  @Id()
  @JsonBody(AppendJobLogsDto)
  @ApiResponse({ status: 204, description: 'Appended.' })
  @Refuses(400, 'No lines, more than 500, or a line over 4,096 characters.')
  @Refuses(409, LEASE_GONE)
  logs(@Req() request: AuthorizedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.relay.forward(request, reply, { to: `${TO}/:id/logs`, body: 'json', ...asPrincipal });
  }

  @Post(':id/complete')
  @RequirePermission('jobs.work', { callerTenant: true })
  @PermissionOperation({
    id: 'completeJob',
    tag: 'Jobs',
    summary: 'Report how an attempt ended',
    description: `${WORK} ${HOLDER} \`succeeded\` with an \`output\`; \`failed\` (retried after the backoff while attempts remain, unless \`retryable: false\`); \`cancelled\` after a heartbeat asked for it. Audited.`,
  })
  @Id()
  @OpaqueBodyMembers('output')
  @JsonBody(CompleteJobDto)
  @Answers(200, JobDto, 'The job as it is now.')
  @Refuses(400, 'An unknown outcome, an output over 32 KiB.')
  @Refuses(409, LEASE_GONE)
  complete(@Req() request: AuthorizedRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.relay.forward(request, reply, { to: `${TO}/:id/complete`, body: 'json', ...asPrincipal });
  }
}
