import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  Allow,
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { JOB_STATES } from '@platform/domain';
import { ANY_JSON_SCHEMA, NullableModelProperty, TimestampProperty } from './fields';
import { operation } from './operation-table';
import { LIVE_STREAM_END, PageQueryDto } from './paging';

const STATE = {
  enum: JOB_STATES,
  description: 'QUEUED, RUNNING, CANCELLING; or final: SUCCEEDED, FAILED, CANCELLED, TIMED_OUT.',
};
const TYPE = {
  description: 'What the job is: workers claim by type. 1 to 64 of a-z 0-9 . _ - starting with a letter.',
  example: 'report.render',
};
const ANY_JSON = { description: 'Any JSON value.', example: { month: '2026-11' }, ...ANY_JSON_SCHEMA };

@ApiSchema({ name: 'JobSubmission', description: 'A job to queue. Limits: docs/jobs.md.' })
export class SubmitJobDto {
  @ApiProperty(TYPE)
  @IsString()
  type: string;

  @ApiPropertyOptional({ ...ANY_JSON, description: 'The work order, JSON, at most 32 KiB.' })
  @Allow()
  payload?: unknown;

  @ApiPropertyOptional({
    description:
      'Submitting again with the same key answers the job the key made (200), not a new one; the same key for other work (type or payload): **409**.',
    example: 'invoice-run-2026-11',
  })
  @IsOptional()
  @IsString()
  idempotency_key?: string;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    default: 3600,
    description: 'How long one attempt may run; then the job ends TIMED_OUT.',
  })
  @IsOptional()
  @IsInt()
  timeout_seconds?: number;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: 25,
    default: 3,
    description: 'Attempts in all, the first included.',
  })
  @IsOptional()
  @IsInt()
  max_attempts?: number;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    default: 1,
    description: 'The wait before the second attempt; it doubles for each next one.',
  })
  @IsOptional()
  @IsInt()
  initial_backoff_seconds?: number;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    default: 300,
    description: 'The longest wait between attempts.',
  })
  @IsOptional()
  @IsInt()
  max_backoff_seconds?: number;
}

@ApiSchema({ name: 'JobError', description: 'Why a job did not succeed (google.rpc.Status in spirit).' })
export class JobErrorDto {
  @ApiProperty({ description: '`worker_error`, `lease_expired`, `timed_out` or `cancelled`.' })
  code: string;

  @ApiProperty()
  message: string;
}

@ApiSchema({
  name: 'Job',
  description: 'A job, in the shape of a google.longrunning Operation: `done`, then `output` or `error`.',
})
export class JobDto {
  @ApiProperty({ description: 'Time-ordered.', example: '0mhx3k2p40001a1b2c3d4e5f6' })
  id: string;

  @ApiProperty({ example: 'acme' })
  tenant: string;

  @ApiProperty(TYPE)
  type: string;

  @ApiProperty(STATE)
  state: string;

  @ApiProperty({ description: 'The state is final.' })
  done: boolean;

  @ApiProperty(ANY_JSON)
  payload: unknown;

  @ApiProperty({ type: 'string', nullable: true })
  idempotency_key: string | null;

  @ApiProperty({ description: 'Who submitted it: a user id or a client_id.' })
  submitted_by: string;

  @ApiProperty({ type: 'integer', description: 'Attempts started so far.' })
  attempt: number;

  @ApiProperty({ type: 'integer' })
  max_attempts: number;

  @ApiProperty({ type: 'integer' })
  timeout_seconds: number;

  @TimestampProperty({
    description: 'A queued job is not claimed before this (the backoff after a failed attempt).',
  })
  run_after: string;

  @ApiProperty({ type: 'string', nullable: true, description: 'The worker (client_id) holding it.' })
  worker: string | null;

  @TimestampProperty({ nullable: true, description: 'When the worker’s lease ends unless renewed.' })
  lease_expires_at: string | null;

  @ApiPropertyOptional({ ...ANY_JSON, description: 'What the job answered; set once it SUCCEEDED.' })
  output?: unknown;

  @NullableModelProperty(JobErrorDto, {
    description: 'Why it did not succeed; a retried failure keeps the last error.',
  })
  error: JobErrorDto | null;

  @TimestampProperty()
  created_at: string;

  @TimestampProperty()
  updated_at: string;

  @TimestampProperty({ nullable: true })
  finished_at: string | null;
}

@ApiSchema({ name: 'JobPage', description: 'One page of a tenant’s jobs, oldest first.' })
export class JobPageDto {
  @ApiProperty({ type: [JobDto] })
  jobs: JobDto[];

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'Pass as `after` for the next page; null on the last.',
  })
  next_after: string | null;
}

export class ListJobsQueryDto extends PageQueryDto {
  @ApiPropertyOptional(STATE)
  @IsOptional()
  @IsIn(JOB_STATES)
  state?: string;

  @ApiPropertyOptional(TYPE)
  @IsOptional()
  @IsString()
  @MaxLength(64)
  type?: string;

  @ApiPropertyOptional({ description: 'Cursor: the `next_after` of the previous page.' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  after?: string;
}

export class JobEventsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    description: 'Cursor: the `next_after` of the previous page (or `Last-Event-ID`).',
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  after?: number;
}

@ApiSchema({ name: 'JobLogLine', description: 'One line a worker logged.' })
export class JobLogLineDto {
  @ApiProperty({ type: 'integer', description: 'Its position, ascending.' })
  id: number;

  @ApiProperty({ type: 'integer', description: 'The attempt that logged it.' })
  attempt: number;

  @TimestampProperty()
  at: string;

  @ApiProperty()
  line: string;
}

@ApiSchema({ name: 'JobLogPage', description: 'Log lines of a job, oldest first.' })
export class JobLogPageDto {
  @ApiProperty({ type: [JobLogLineDto] })
  lines: JobLogLineDto[];

  @ApiProperty({ type: 'integer', description: 'The cursor for the next page.' })
  next_after: number;

  @ApiProperty({ description: 'The job has ended: no line will follow the last one.' })
  done: boolean;
}

@ApiSchema({ name: 'JobTransition', description: 'A state a job entered.' })
export class JobTransitionDto {
  @ApiProperty({ type: 'integer' })
  id: number;

  @ApiProperty(STATE)
  state: string;

  @ApiProperty({ type: 'integer' })
  attempt: number;

  @TimestampProperty()
  at: string;
}

@ApiSchema({ name: 'JobTransitionPage', description: 'The states a job went through, oldest first.' })
export class JobTransitionPageDto {
  @ApiProperty({ type: [JobTransitionDto] })
  transitions: JobTransitionDto[];

  @ApiProperty({ type: 'integer' })
  next_after: number;
}

@ApiSchema({ name: 'JobClaim', description: 'What a worker asks for.' })
export class ClaimJobDto {
  @ApiProperty({
    type: [String],
    description: 'The job types this worker runs (1 to 50).',
    example: ['report.render'],
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(50)
  @IsString({ each: true })
  types: string[];

  @ApiPropertyOptional({
    description:
      'Only jobs of this tenant (403 outside the worker’s reach). Without it: the tenant the worker’s app is bound to, or every tenant for an unbound worker.',
  })
  @IsOptional()
  @IsString()
  tenant?: string;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 5,
    maximum: 600,
    default: 30,
    description: 'The lease; renew it by heartbeat well before it ends.',
  })
  @IsOptional()
  @IsInt()
  lease_seconds?: number;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    maximum: 5,
    default: 0,
    description: 'Wait up to this long for a job (long poll) before answering 204; more counts as 5.',
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  wait_seconds?: number;
}

@ApiSchema({ name: 'JobClaims', description: 'What a worker asks for, several jobs at once.' })
export class ClaimJobsDto extends ClaimJobDto {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: 100,
    default: 1,
    description: 'Take up to this many jobs (each under a lease of its own).',
  })
  @IsOptional()
  @IsInt()
  max_jobs?: number;
}

@ApiSchema({ name: 'JobLease', description: 'A worker’s hold on a job.' })
export class JobLeaseDto {
  @ApiProperty({
    description:
      'Send it with every heartbeat, log and completion: it fences a worker whose lease was given to another.',
  })
  id: string;

  @TimestampProperty()
  expires_at: string;
}

@ApiSchema({ name: 'ClaimedJob', description: 'A job claimed by the caller, with its lease.' })
export class ClaimedJobDto extends JobDto {
  @ApiProperty({ type: JobLeaseDto })
  lease: JobLeaseDto;
}

@ApiSchema({
  name: 'ClaimedJobs',
  description: 'The jobs claimed, oldest first; none after waiting in vain.',
})
export class ClaimedJobsDto {
  @ApiProperty({ type: [ClaimedJobDto] })
  jobs: ClaimedJobDto[];
}

@ApiSchema({ name: 'JobHeartbeat' })
export class JobHeartbeatDto {
  @ApiProperty()
  @IsString()
  lease_id: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 5, maximum: 600, default: 30 })
  @IsOptional()
  @IsInt()
  lease_seconds?: number;
}

@ApiSchema({ name: 'JobHeartbeatAnswer' })
export class JobHeartbeatAnswerDto {
  @ApiProperty({ description: 'The job is being cancelled: stop, and complete with `cancelled`.' })
  cancel_requested: boolean;

  @TimestampProperty()
  lease_expires_at: string;
}

@ApiSchema({ name: 'JobLogAppend' })
export class AppendJobLogsDto {
  @ApiProperty()
  @IsString()
  lease_id: string;

  @ApiProperty({ type: [String], description: '1 to 500 lines of at most 4,096 characters.' })
  @IsArray()
  @IsString({ each: true })
  lines: string[];
}

@ApiSchema({ name: 'JobFailure' })
export class JobFailureDto {
  @ApiProperty()
  @IsString()
  message: string;

  @ApiPropertyOptional({ default: true, description: 'false: do not try again.' })
  @IsOptional()
  @IsBoolean()
  retryable?: boolean;
}

@ApiSchema({ name: 'JobCompletion', description: 'How the attempt ended.' })
export class CompleteJobDto {
  @ApiProperty()
  @IsString()
  lease_id: string;

  @ApiProperty({ enum: ['succeeded', 'failed', 'cancelled'] })
  @IsIn(['succeeded', 'failed', 'cancelled'])
  outcome: 'succeeded' | 'failed' | 'cancelled';

  @ApiPropertyOptional({
    ...ANY_JSON,
    description: 'With `succeeded`: the job’s answer, JSON, at most 32 KiB.',
  })
  @Allow()
  output?: unknown;

  @ApiPropertyOptional({ type: JobFailureDto, description: 'With `failed`.' })
  @IsOptional()
  @ValidateNested()
  @Type(() => JobFailureDto)
  error?: JobFailureDto;
}

@ApiSchema({ name: 'JobCompletionReport', description: 'How one attempt ended, in a batch.' })
export class JobCompletionItemDto extends CompleteJobDto {
  @ApiProperty({ description: 'The job.' })
  @IsString()
  @MaxLength(64)
  id: string;
}

@ApiSchema({ name: 'JobCompletions', description: 'How several attempts ended.' })
export class CompleteJobsDto {
  @ApiProperty({ type: [JobCompletionItemDto], description: '1 to 100 reports, each judged alone.' })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @ValidateNested({ each: true })
  @Type(() => JobCompletionItemDto)
  completions: JobCompletionItemDto[];
}

@ApiSchema({ name: 'JobRefusal', description: 'Why one item of a batch was refused.' })
export class JobRefusalDto {
  @ApiProperty({
    type: 'integer',
    enum: [400, 403, 404, 409, 429],
    description: 'The status the item alone would have had.',
  })
  status: number;

  @ApiProperty()
  detail: string;
}

@ApiSchema({
  name: 'JobCompletionResult',
  description: 'What became of one report: the job’s state now, or the refusal.',
})
export class JobCompletionResultDto {
  @ApiProperty()
  id: string;

  @ApiPropertyOptional({ ...STATE, description: 'The job’s state now (the report was applied).' })
  state?: string;

  @ApiPropertyOptional({ type: JobRefusalDto })
  refused?: JobRefusalDto;
}

@ApiSchema({ name: 'JobCompletionResults', description: 'A result for each report, in their order.' })
export class JobCompletionResultsDto {
  @ApiProperty({ type: [JobCompletionResultDto] })
  results: JobCompletionResultDto[];
}

@ApiSchema({ name: 'JobSubmissions', description: 'Jobs to queue at once.' })
export class SubmitJobsDto {
  @ApiProperty({ type: [SubmitJobDto], description: '1 to 100 submissions, each judged alone.' })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @ValidateNested({ each: true })
  @Type(() => SubmitJobDto)
  jobs: SubmitJobDto[];
}

@ApiSchema({
  name: 'JobSubmissionResult',
  description: 'What became of one submission: the job, or the refusal.',
})
export class JobSubmissionResultDto {
  @ApiPropertyOptional({ type: JobDto, description: 'The job queued, or the one its idempotency key made.' })
  job?: JobDto;

  @ApiPropertyOptional({
    description: 'true: queued now; false: an earlier submission with the same idempotency key made it.',
  })
  created?: boolean;

  @ApiPropertyOptional({ type: JobRefusalDto })
  refused?: JobRefusalDto;
}

@ApiSchema({ name: 'JobSubmissionResults', description: 'A result for each submission, in their order.' })
export class JobSubmissionResultsDto {
  @ApiProperty({ type: [JobSubmissionResultDto] })
  results: JobSubmissionResultDto[];
}

const JOBS_PATH = 'api/v1/tenants/:tenant/jobs';
const JOBS_INTERNAL = 'internal/v1/tenants/:tenant/jobs';
const WRITE = { kind: 'permission', action: 'jobs.write', tenantParam: 'tenant' } as const;
const READ = { kind: 'permission', action: 'jobs.read', tenantParam: 'tenant' } as const;
const READ_DESCRIPTION = 'Permission `jobs.read` on `{tenant}`.';
const TENANT = { tenant: { example: 'acme' } };
const JOB = { ...TENANT, id: {} };
const NO_JOB = 'No such job in the tenant.';

/**
 * A tenant's jobs (docs/jobs.md): submitted and cancelled with `jobs.write`, read with
 * `jobs.read`; the control plane serves them as internal routes for the principal the edge names.
 */
export const JOB_OPERATIONS = {
  submit: operation({
    id: 'submitJob',
    tag: 'Jobs',
    summary: 'Submit a job',
    description:
      'Permission `jobs.write` on `{tenant}`. Queues the job for a worker of its type: at least once, retried with backoff while attempts remain, ended TIMED_OUT past its timeout. With `idempotency_key`, a second submission answers the first job (**200**) rather than queueing another. Each new job counts against the tenant’s `jobs_submitted` quota, if its plan has one (docs/plans.md). Audited (`job.submitted`).',
    method: 'POST',
    path: JOBS_PATH,
    internal: JOBS_INTERNAL,
    caller: WRITE,
    params: TENANT,
    opaque: ['payload'],
    body: { type: 'json', model: SubmitJobDto },
    answer: { status: 201, model: JobDto, description: 'Queued.' },
    otherAnswers: [
      {
        status: 200,
        model: JobDto,
        description: 'The job an earlier submission with the same idempotency key made.',
      },
    ],
    refuses: {
      400: 'A bad type, payload over 32 KiB, limits out of range.',
      409: 'The idempotency key was used for other work.',
      429: 'The tenant’s `jobs_submitted` quota is used up until the window ends (`Retry-After`).',
    },
  }),
  submitMany: operation({
    id: 'submitJobs',
    tag: 'Jobs',
    summary: 'Submit several jobs at once',
    description:
      'Permission `jobs.write` on `{tenant}`. 1 to 100 submissions, each judged by the single submission’s rules and answered alone, in their order: the job and whether it was queued now (`created: false`: its idempotency key’s earlier job), or the status that submission alone would have had (400, 409, 429). Written together: one transaction, one append to the audit chain. Audited (`job.submitted`, one record per job).',
    method: 'POST',
    path: `${JOBS_PATH}/batch`,
    internal: `${JOBS_INTERNAL}/batch`,
    caller: WRITE,
    params: TENANT,
    opaque: ['jobs[].payload'],
    body: { type: 'json', model: SubmitJobsDto },
    answer: { status: 200, model: JobSubmissionResultsDto, description: 'A result for each submission.' },
    refuses: { 400: 'No submissions, more than 100, or one that is not a submission’s shape.' },
  }),
  list: operation({
    id: 'listJobs',
    tag: 'Jobs',
    summary: 'A tenant’s jobs',
    description: `${READ_DESCRIPTION} Oldest first, by state and type, paged.`,
    method: 'GET',
    path: JOBS_PATH,
    internal: JOBS_INTERNAL,
    caller: READ,
    params: TENANT,
    query: ListJobsQueryDto,
    answer: { status: 200, model: JobPageDto, description: 'One page.' },
    refuses: { 400: 'A malformed filter.' },
  }),
  get: operation({
    id: 'getJob',
    tag: 'Jobs',
    summary: 'A job',
    description: READ_DESCRIPTION,
    method: 'GET',
    path: `${JOBS_PATH}/:id`,
    internal: `${JOBS_INTERNAL}/:id`,
    caller: READ,
    params: JOB,
    answer: { status: 200, model: JobDto, description: 'The job.' },
    refuses: { 404: NO_JOB },
  }),
  cancel: operation({
    id: 'cancelJob',
    tag: 'Jobs',
    summary: 'Cancel a job',
    description:
      'Permission `jobs.write` on `{tenant}`. A queued job is CANCELLED at once; a running one becomes CANCELLING and its worker learns at its next heartbeat. Audited (`job.cancel_requested`).',
    method: 'POST',
    path: `${JOBS_PATH}/:id/cancel`,
    internal: `${JOBS_INTERNAL}/:id/cancel`,
    caller: WRITE,
    params: JOB,
    answer: { status: 200, model: JobDto, description: 'The job as it is now.' },
    refuses: { 404: NO_JOB, 409: 'The job has already ended.' },
  }),
  output: operation({
    id: 'getJobOutput',
    tag: 'Jobs',
    summary: 'The result of a job that ended',
    description: `${READ_DESCRIPTION} \`output\` when it SUCCEEDED, \`error\` otherwise.`,
    method: 'GET',
    path: `${JOBS_PATH}/:id/output`,
    internal: `${JOBS_INTERNAL}/:id/output`,
    caller: READ,
    params: JOB,
    answer: { status: 200, model: JobDto, description: 'The ended job with its output or error.' },
    refuses: { 404: NO_JOB, 409: 'The job has not ended yet.' },
  }),
  // This and the next stream live on request: the handler then writes the stream and answers nothing.
  transitions: operation({
    id: 'watchJob',
    tag: 'Jobs',
    summary: 'The states a job went through (watch it live)',
    description: `${READ_DESCRIPTION} Or live, with \`Accept: text/event-stream\`: every state so far, then each transition (\`event: job_transition\`), the stream ending once the job has ended. ${LIVE_STREAM_END}`,
    method: 'GET',
    path: `${JOBS_PATH}/:id/transitions`,
    internal: `${JOBS_INTERNAL}/:id/transitions`,
    caller: READ,
    params: JOB,
    query: JobEventsQueryDto,
    answer: { status: 200, model: JobTransitionPageDto, description: 'The transitions.' },
    refuses: { 404: NO_JOB },
    live: true,
  }),
  logs: operation({
    id: 'getJobLogs',
    tag: 'Jobs',
    summary: 'A job’s log lines (follow them live)',
    description: `${READ_DESCRIPTION} Paged by \`after\`; \`done\` says no line will follow. Or live, with \`Accept: text/event-stream\` (\`event: job_log\`), ending once the job has ended. ${LIVE_STREAM_END}`,
    method: 'GET',
    path: `${JOBS_PATH}/:id/logs`,
    internal: `${JOBS_INTERNAL}/:id/logs`,
    caller: READ,
    params: JOB,
    query: JobEventsQueryDto,
    answer: { status: 200, model: JobLogPageDto, description: 'One page of lines.' },
    refuses: { 404: NO_JOB },
    live: true,
  }),
};

const WORKERS_PATH = 'api/v1/jobs';
const WORKERS_INTERNAL = 'internal/v1/jobs';
/** A call about a job the worker holds: the path names no tenant, the worker acts in its own. */
const HOLDING_WORKER = { kind: 'permission', action: 'jobs.work', callerTenant: true } as const;
const WORK =
  'Permission `jobs.work`: a worker, a service app with its own credentials (never a user token), within its reach (an app bound to a tenant works that tenant’s jobs only).';
const HOLDER = 'Only the worker that claimed the job, as it claimed it, may call with its lease id.';
const LEASE_GONE =
  'The lease is gone (it expired and the job went back to the queue or to another worker, or the job ended): stop working on it.';
const WORKED_JOB = { id: {} };

/**
 * The worker's side of the queue (docs/jobs.md; the SDK's `JobWorker` drives it), with
 * `jobs.work`: claim under a lease (long poll), heartbeat, log lines, completion. The control
 * plane serves them as internal routes for the principal the edge names.
 */
export const JOB_WORKER_OPERATIONS = {
  // A claim answers a job or, after waiting in vain, nothing (204).
  claim: operation<typeof ClaimedJobDto | undefined>({
    id: 'claimJob',
    tag: 'Jobs',
    summary: 'Claim the next job of the types a worker runs',
    description: `${WORK} The oldest queued job of one of \`types\` whose backoff has passed, RUNNING under a lease for this worker; no two workers hold one job at once. From \`tenant\` when named (refused outside the worker’s reach), else from the worker’s own tenant when it is bound to one, else from every tenant. Waits up to \`wait_seconds\` for one (long poll).`,
    method: 'POST',
    path: `${WORKERS_PATH}/claim`,
    internal: `${WORKERS_INTERNAL}/claim`,
    caller: { kind: 'permission', action: 'jobs.work', tenantBody: 'tenant' },
    body: { type: 'json', model: ClaimJobDto },
    answer: { status: 200, model: ClaimedJobDto, description: 'A job with its lease.' },
    otherAnswers: [{ status: 204, description: 'None within `wait_seconds`.' }],
    refuses: { 400: 'No types, a malformed type, a lease out of range.' },
    longPoll: true,
  }),
  claimMany: operation({
    id: 'claimJobs',
    tag: 'Jobs',
    summary: 'Claim up to `max_jobs` jobs of the types a worker runs',
    description: `${WORK} The claim's rules for up to \`max_jobs\` jobs at once, oldest first, each RUNNING under a lease of its own; an empty list after waiting \`wait_seconds\` in vain (long poll). The SDK's \`JobWorker\` claims as many as it has free slots.`,
    method: 'POST',
    path: `${WORKERS_PATH}/claims`,
    internal: `${WORKERS_INTERNAL}/claims`,
    caller: { kind: 'permission', action: 'jobs.work', tenantBody: 'tenant' },
    body: { type: 'json', model: ClaimJobsDto },
    answer: { status: 200, model: ClaimedJobsDto, description: 'The jobs with their leases (maybe none).' },
    otherAnswers: [
      { status: 204, description: 'The backend asked is shutting down: nothing claimed, ask again.' },
    ],
    refuses: { 400: 'No types, a malformed type, a lease or `max_jobs` out of range.' },
    longPoll: true,
  }),
  heartbeat: operation({
    id: 'heartbeatJob',
    tag: 'Jobs',
    summary: 'Renew a job’s lease',
    description: `${WORK} ${HOLDER} Answers whether the job is being cancelled.`,
    method: 'POST',
    path: `${WORKERS_PATH}/:id/heartbeat`,
    internal: `${WORKERS_INTERNAL}/:id/heartbeat`,
    caller: HOLDING_WORKER,
    params: WORKED_JOB,
    body: { type: 'json', model: JobHeartbeatDto },
    answer: { status: 200, model: JobHeartbeatAnswerDto, description: 'Renewed.' },
    refuses: { 404: 'No such job.', 409: LEASE_GONE },
  }),
  logs: operation({
    id: 'appendJobLogs',
    tag: 'Jobs',
    summary: 'Append log lines to a job',
    description: `${WORK} ${HOLDER}`,
    method: 'POST',
    path: `${WORKERS_PATH}/:id/logs`,
    internal: `${WORKERS_INTERNAL}/:id/logs`,
    caller: HOLDING_WORKER,
    params: WORKED_JOB,
    body: { type: 'json', model: AppendJobLogsDto },
    answer: { status: 204, description: 'Appended.' },
    refuses: { 400: 'No lines, more than 500, or a line over 4,096 characters.', 409: LEASE_GONE },
  }),
  complete: operation({
    id: 'completeJob',
    tag: 'Jobs',
    summary: 'Report how an attempt ended',
    description: `${WORK} ${HOLDER} \`succeeded\` with an \`output\`; \`failed\` (retried after the backoff while attempts remain, unless \`retryable: false\`); \`cancelled\` after a heartbeat asked for it. Audited.`,
    method: 'POST',
    path: `${WORKERS_PATH}/:id/complete`,
    internal: `${WORKERS_INTERNAL}/:id/complete`,
    caller: HOLDING_WORKER,
    params: WORKED_JOB,
    opaque: ['output'],
    body: { type: 'json', model: CompleteJobDto },
    answer: { status: 200, model: JobDto, description: 'The job as it is now.' },
    refuses: { 400: 'An unknown outcome, an output over 32 KiB.', 409: LEASE_GONE },
  }),
  completeMany: operation({
    id: 'completeJobs',
    tag: 'Jobs',
    summary: 'Report how several attempts ended',
    description: `${WORK} The completion's rules for 1 to 100 reports at once, each judged alone and applied in one transaction: a result for each, in their order, with the job's state or the status the report alone would have had (403, 404, 409, 400). Audited, one record per job.`,
    method: 'POST',
    path: `${WORKERS_PATH}/completions`,
    internal: `${WORKERS_INTERNAL}/completions`,
    caller: HOLDING_WORKER,
    opaque: ['completions[].output'],
    body: { type: 'json', model: CompleteJobsDto },
    answer: { status: 200, model: JobCompletionResultsDto, description: 'A result for each report.' },
    refuses: { 400: 'No reports, more than 100, an unknown outcome.' },
  }),
};
