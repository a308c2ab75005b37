import type {
  ClaimedJobDto,
  JobDto,
  JobLogPageDto,
  JobRefusalDto,
  JobTransitionPageDto,
} from '@platform/contract';
import { type DomainError, FINAL_JOB_STATES, type Job, type JobEvent } from '@platform/domain';
import { domainStatus } from '@platform/http';

export function toJobResponse(job: Job): JobDto {
  return {
    id: job.id,
    tenant: job.tenant,
    type: job.type,
    state: job.state,
    done: FINAL_JOB_STATES.includes(job.state),
    payload: job.payload,
    idempotency_key: job.idempotencyKey,
    submitted_by: job.submittedBy,
    attempt: job.attempt,
    max_attempts: job.retry.maxAttempts,
    timeout_seconds: job.timeoutSeconds,
    run_after: job.runAfter.toISOString(),
    worker: job.lease?.worker ?? null,
    lease_expires_at: job.lease?.expiresAt.toISOString() ?? null,
    ...(job.state === 'SUCCEEDED' && { output: job.output }),
    error: job.error,
    created_at: job.createdAt.toISOString(),
    updated_at: job.updatedAt.toISOString(),
    finished_at: job.finishedAt?.toISOString() ?? null,
  };
}

export function toClaimedJobResponse(job: Job): ClaimedJobDto {
  const lease = job.lease as NonNullable<Job['lease']>;
  return { ...toJobResponse(job), lease: { id: lease.id, expires_at: lease.expiresAt.toISOString() } };
}

export const toLogLine = (event: JobEvent) => ({
  id: event.id,
  attempt: event.attempt,
  at: event.at.toISOString(),
  line: event.line ?? '',
});

export const toTransition = (event: JobEvent) => ({
  id: event.id,
  state: event.state ?? '',
  attempt: event.attempt,
  at: event.at.toISOString(),
});

export function toLogPage(events: JobEvent[], after: number, done: boolean): JobLogPageDto {
  return { lines: events.map(toLogLine), next_after: events.at(-1)?.id ?? after, done };
}

export function toTransitionPage(events: JobEvent[], after: number): JobTransitionPageDto {
  return { transitions: events.map(toTransition), next_after: events.at(-1)?.id ?? after };
}

/** One item of a batch refused: the status and detail the item alone would have been answered. */
export const toRefusal = (error: DomainError): JobRefusalDto => ({
  status: domainStatus(error.code),
  detail: error.message,
});
