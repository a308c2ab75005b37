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
import { TimestampProperty } from './fields';
import { PageQueryDto } from './paging';

const STATE = {
  enum: JOB_STATES,
  description: 'QUEUED, RUNNING, CANCELLING; or final: SUCCEEDED, FAILED, CANCELLED, TIMED_OUT.',
};
const TYPE = {
  description: 'What the job is: workers claim by type. 1 to 64 of a-z 0-9 . _ - starting with a letter.',
  example: 'report.render',
};
const ANY_JSON = { description: 'Any JSON value.', example: { month: '2026-11' } };

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

  @ApiProperty({
    type: JobErrorDto,
    nullable: true,
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
