import { randomBytes, randomUUID } from 'node:crypto';
import { type AuditActor, auditActorOf, PLATFORM_ACTOR, type AuditTrail } from '../audit/audit-trail';
import type { CrossTenantRefusal } from '../authority/cross-tenant-refusals';
import { decide } from '../authority/decide';
import { policyPrincipalOf } from '../authority/principal';
import type { Clock } from '../clock';
import { conflict, DomainError, notFound, validationFailed } from '../errors';
import { GroupCommit } from '../group-commit';
import { noUnitsTaken, PLATFORM_METERS, type UsageMeter } from '../plans/usage-meter';
import type { Stores, Transactor } from '../storage';
import { type ActingPrincipal, assertReachesTenant } from '../users/user-administration';
import {
  FINAL_JOB_STATES,
  type Job,
  type JobEvent,
  type JobEventInput,
  type JobGuard,
  type JobLeaseHolder,
  type JobQuery,
  type JobState,
  type JobStore,
  LEASED_JOB_STATES,
  type RetryPolicy,
} from './job';

export const JOB_DEFAULTS = {
  timeoutSeconds: 3_600,
  retry: { maxAttempts: 3, initialBackoffSeconds: 1, maxBackoffSeconds: 300 } satisfies RetryPolicy,
  leaseSeconds: 30,
};
const LIMITS = {
  timeoutSeconds: [1, 7 * 86_400],
  maxAttempts: [1, 25],
  backoffSeconds: [0, 86_400],
  leaseSeconds: [5, 600],
} as const;
/** A payload or an output, as JSON: work orders and results, not files. */
export const MAX_JOB_JSON_BYTES = 32_768;
export const MAX_LOG_LINE = 4_096;
export const MAX_LOG_LINES_PER_CALL = 500;
const TYPE = /^[a-z][a-z0-9._-]{0,63}$/;
const KEY = /^[\x21-\x7e]{1,128}$/;
const SWEEP_PAGE = 100;
/** Jobs one call submits or claims, and completions one call reports, at most. */
export const MAX_JOBS_PER_CALL = 100;

export interface JobSubmission {
  type: string;
  payload: unknown;
  idempotencyKey?: string;
  timeoutSeconds?: number;
  retry?: Partial<RetryPolicy>;
}

export interface JobQueueHooks {
  /** Told when a job becomes claimable (it wakes the claims waiting in this process). */
  onQueued?: () => void;
  /** Audits a worker refused in another tenant than its own (a `CrossTenantRefusalAuditor`). */
  refusals?: { refused(refusal: CrossTenantRefusal): Promise<unknown> };
  /** Counts each new job against the tenant's `jobs_submitted` quota (docs/plans.md). */
  meter?: UsageMeter;
}

/** How an attempt ended, as its worker reports it. */
export type JobOutcome =
  | { outcome: 'succeeded'; output?: unknown }
  | { outcome: 'failed'; message: string; retryable?: boolean }
  | { outcome: 'cancelled' };

/** One report of a batch: the job, the lease it was worked under, how the attempt ended. */
export interface JobCompletion {
  id: string;
  leaseId: string;
  report: JobOutcome;
}

/** What became of one submission of a batch: `submit`'s answer, or why it was refused. */
export type JobSubmissionResult = { job: Job; created: boolean } | { error: DomainError };

/** What became of one completion of a batch: the job as it is now, or why it was refused. */
export type JobCompletionResult = { id: string; job: Job } | { id: string; error: DomainError };

/**
 * The job queue's rules (docs/jobs.md): submission (idempotent by key), cancellation, reading,
 * and the worker's side (claim under a lease, heartbeat, log lines, completion: a service
 * principal with `jobs.work` within its reach, then only the lease's holder), with the
 * sweep that requeues a job whose worker stopped renewing its lease and ends one that ran past
 * its timeout. Every change is one transaction with its event and, for what a caller or the
 * platform decided, its audit record.
 */
export class JobQueue {
  /**
   * New jobs go in by group commit: the submissions of a turn in one transaction with their
   * events and one append to the audit chain (whose lock every writer shares).
   */
  private readonly submissions = new GroupCommit<{ job: Job; actor: AuditActor }, boolean>((items) =>
    this.transactor.inTransaction(async (stores) => {
      const inserted = (await stores.jobs.insertJobs(items.map(({ job }) => job))).map(
        (r) => r === 'created',
      );
      await this.recorded(
        stores,
        items
          .filter((_, i) => inserted[i])
          .map(({ job, actor }) => ({
            job,
            state: 'QUEUED' as const,
            actor,
            action: 'job.submitted',
            attributes: { type: job.type },
          })),
        this.clock.now(),
      );
      return inserted;
    }),
  );

  constructor(
    private readonly jobs: Pick<
      JobStore,
      'findJob' | 'findJobs' | 'findJobByIdempotencyKey' | 'listJobs' | 'listOverdueJobs' | 'listJobEvents'
    >,
    private readonly transactor: Transactor,
    private readonly trail: AuditTrail,
    private readonly clock: Clock,
    private readonly hooks: JobQueueHooks = {},
  ) {}

  /** Queues a job; with an idempotency key already used by the tenant, answers that job instead. */
  async submit(
    principal: ActingPrincipal,
    tenant: string,
    submission: JobSubmission,
  ): Promise<{ job: Job; created: boolean }> {
    assertReachesTenant(principal, tenant);
    const job = this.newJob(principal, tenant, submission);
    if (job.idempotencyKey !== null) {
      const earlier = await this.jobs.findJobByIdempotencyKey(tenant, job.idempotencyKey);
      if (earlier) return { job: sameSubmission(earlier, job), created: false };
    }
    const giveBack = (await this.hooks.meter?.take(tenant, PLATFORM_METERS.jobsSubmitted)) ?? noUnitsTaken;
    const inserted = await this.submissions
      .submit({ job, actor: auditActorOf(principal) })
      .catch(async (error: unknown) => {
        await giveBack();
        throw error;
      });
    if (!inserted) {
      await giveBack();
      const winner = await this.jobs.findJobByIdempotencyKey(tenant, job.idempotencyKey as string);
      return { job: sameSubmission(winner as Job, job), created: false };
    }
    this.hooks.onQueued?.();
    return { job, created: true };
  }

  /**
   * Several submissions, each judged by `submit`'s rules alone (a refusal answers that one);
   * those that meet in one turn are written in one transaction (the group commit above).
   */
  async submitMany(
    principal: ActingPrincipal,
    tenant: string,
    submissions: readonly JobSubmission[],
  ): Promise<JobSubmissionResult[]> {
    assertReachesTenant(principal, tenant);
    if (submissions.length === 0 || submissions.length > MAX_JOBS_PER_CALL) {
      throw validationFailed(`jobs must be 1 to ${MAX_JOBS_PER_CALL} submissions`);
    }
    return Promise.all(
      submissions.map((submission) =>
        this.submit(principal, tenant, submission).catch((error: unknown) => {
          if (!(error instanceof DomainError)) throw error;
          return { error };
        }),
      ),
    );
  }

  async get(principal: ActingPrincipal, tenant: string, id: string): Promise<Job> {
    assertReachesTenant(principal, tenant);
    const job = await this.jobs.findJob(id);
    if (!job || job.tenant !== tenant) throw notFound(`job ${id}`);
    return job;
  }

  list(principal: ActingPrincipal, query: JobQuery): Promise<Job[]> {
    assertReachesTenant(principal, query.tenant);
    return this.jobs.listJobs(query);
  }

  /**
   * A queued job is cancelled at once; a running one becomes CANCELLING and its worker learns
   * at its next heartbeat. A job already ended: 409.
   */
  async cancel(principal: ActingPrincipal, tenant: string, id: string): Promise<Job> {
    for (;;) {
      const job = await this.get(principal, tenant, id);
      if (FINAL_JOB_STATES.includes(job.state)) throw conflict(`job ${id} has already ended: ${job.state}`);
      if (job.state === 'CANCELLING') return job;
      const now = this.clock.now();
      const next: Partial<Job> =
        job.state === 'QUEUED'
          ? {
              state: 'CANCELLED',
              finishedAt: now,
              error: { code: 'cancelled', message: 'cancelled before it ran' },
            }
          : { state: 'CANCELLING' };
      const changed = await this.transition(
        job,
        { states: [job.state] },
        next,
        now,
        auditActorOf(principal),
        'job.cancel_requested',
        {},
      );
      // Lost to a claim or a completion meanwhile: look again.
      if (changed) return this.current(id);
    }
  }

  /** The job's log lines after the event id `after`, oldest first. */
  async logs(
    principal: ActingPrincipal,
    tenant: string,
    id: string,
    after: number,
    limit: number,
  ): Promise<JobEvent[]> {
    await this.get(principal, tenant, id);
    return this.jobs.listJobEvents(id, 'log', after, limit);
  }

  /** The job's state changes after the event id `after`, oldest first. */
  async transitions(
    principal: ActingPrincipal,
    tenant: string,
    id: string,
    after: number,
  ): Promise<JobEvent[]> {
    await this.get(principal, tenant, id);
    return this.jobs.listJobEvents(id, 'state', after, 1_000);
  }

  /** A job that has ended, with its output or error; 409 while it runs. */
  async result(principal: ActingPrincipal, tenant: string, id: string): Promise<Job> {
    const job = await this.get(principal, tenant, id);
    if (!FINAL_JOB_STATES.includes(job.state)) throw conflict(`job ${id} has not ended: ${job.state}`);
    return job;
  }

  /** `claimMany` for one job; null: none. */
  async claim(
    worker: ActingPrincipal,
    types: readonly string[],
    options: { tenant?: string; leaseSeconds?: number } = {},
  ): Promise<Job | null> {
    return (await this.claimMany(worker, types, { ...options, max: 1 }))[0] ?? null;
  }

  /**
   * A worker takes up to `max` of the oldest claimable jobs of its types, each under a lease of
   * its own for `leaseSeconds`, in one transaction; empty: none. Only from `tenant` when named,
   * else from the worker's own tenant when it is bound to one, else from every tenant. The lease
   * records who claimed.
   */
  async claimMany(
    worker: ActingPrincipal,
    types: readonly string[],
    options: { tenant?: string; leaseSeconds?: number; max?: number } = {},
  ): Promise<Job[]> {
    if (types.length === 0 || types.length > 50 || !types.every((t) => TYPE.test(t))) {
      throw validationFailed('types must be 1 to 50 job types (lower case, 1 to 64 of a-z 0-9 . _ -)');
    }
    const max = bounded('max_jobs', options.max ?? 1, [1, MAX_JOBS_PER_CALL]);
    const tenant = options.tenant || worker.tenant || undefined;
    await this.assertMayWork(worker, tenant ?? '');
    const leaseSeconds = bounded(
      'lease_seconds',
      options.leaseSeconds ?? JOB_DEFAULTS.leaseSeconds,
      LIMITS.leaseSeconds,
    );
    const now = this.clock.now();
    const holder = holderOf(worker);
    const expiresAt = after(now, leaseSeconds);
    return this.transactor.inTransaction(async (stores) => {
      const jobs = await stores.jobs.claimJobs({
        types,
        tenant,
        now,
        limit: max,
        leaseFor: () => ({ id: randomBytes(16).toString('base64url'), ...holder, expiresAt }),
        deadlineAt: (j) => after(now, j.timeoutSeconds),
      });
      await stores.jobs.appendJobEvents(jobs.map((job) => stateEvent(job, 'RUNNING', now)));
      return jobs;
    });
  }

  /**
   * A claimed job whose worker went away before it heard of the claim: queued again at once,
   * its attempt given back, rather than waiting for a lease nobody holds to run out.
   */
  async release(job: Job): Promise<void> {
    const now = this.clock.now();
    const released = await this.transition(
      job,
      { states: ['RUNNING'], leaseId: job.lease?.id },
      { state: 'QUEUED', lease: null, deadlineAt: null, runAfter: now, attempt: job.attempt - 1 },
      now,
      PLATFORM_ACTOR,
      'job.released',
      { attempt: job.attempt },
    );
    if (released) this.hooks.onQueued?.();
  }

  /** Renews the lease; answers whether the job is to be cancelled. 409 when the lease is gone. */
  async heartbeat(
    worker: ActingPrincipal,
    id: string,
    leaseId: string,
    leaseSeconds = JOB_DEFAULTS.leaseSeconds,
  ): Promise<{ cancelRequested: boolean; leaseExpiresAt: Date }> {
    const job = await this.leased(worker, id, leaseId);
    const expiresAt = after(this.clock.now(), bounded('lease_seconds', leaseSeconds, LIMITS.leaseSeconds));
    const renewed = await this.transactor.inTransaction((stores) =>
      stores.jobs.updateJob(
        id,
        { states: LEASED_JOB_STATES, leaseId, holder: holderOf(worker) },
        { lease: { ...(job.lease as NonNullable<Job['lease']>), expiresAt }, updatedAt: this.clock.now() },
      ),
    );
    if (!renewed) throw leaseGone(id);
    const now = await this.current(id);
    return { cancelRequested: now.state === 'CANCELLING', leaseExpiresAt: expiresAt };
  }

  async appendLogs(
    worker: ActingPrincipal,
    id: string,
    leaseId: string,
    lines: readonly string[],
  ): Promise<void> {
    if (lines.length === 0 || lines.length > MAX_LOG_LINES_PER_CALL) {
      throw validationFailed(`lines must be 1 to ${MAX_LOG_LINES_PER_CALL} log lines`);
    }
    if (lines.some((line) => typeof line !== 'string' || line.length > MAX_LOG_LINE)) {
      throw validationFailed(`a log line is a string of at most ${MAX_LOG_LINE} characters`);
    }
    const job = await this.leased(worker, id, leaseId);
    const at = this.clock.now();
    await this.transactor.inTransaction((stores) =>
      stores.jobs.appendJobEvents(
        lines.map((line) => ({ jobId: id, kind: 'log', attempt: job.attempt, at, state: null, line })),
      ),
    );
  }

  /**
   * The worker's report of its attempt. A failure retries (after the backoff) while attempts
   * remain, unless `retryable: false`; a job being cancelled ends CANCELLED unless it succeeded.
   */
  async complete(worker: ActingPrincipal, id: string, leaseId: string, report: JobOutcome): Promise<Job> {
    const [result] = await this.completeMany(worker, [{ id, leaseId, report }]);
    if ('error' in result) throw result.error;
    return result.job;
  }

  /**
   * Reports of several attempts (`complete`'s rules, each judged alone) applied in one
   * transaction with their events and audit records; a result for each, in their order.
   */
  async completeMany(
    worker: ActingPrincipal,
    completions: readonly JobCompletion[],
  ): Promise<JobCompletionResult[]> {
    if (completions.length === 0 || completions.length > MAX_JOBS_PER_CALL) {
      throw validationFailed(`completions must be 1 to ${MAX_JOBS_PER_CALL} reports`);
    }
    const found = new Map((await this.jobs.findJobs(completions.map((c) => c.id))).map((j) => [j.id, j]));
    const now = this.clock.now();
    const results: JobCompletionResult[] = [];
    const changes: Array<{ at: number; completion: JobCompletion; job: Job; next: Partial<Job> }> = [];
    for (const completion of completions) {
      const { id, leaseId, report } = completion;
      try {
        if (report.outcome === 'succeeded') checkJson('output', report.output ?? null);
        const job = await this.leased(worker, id, leaseId, found.get(id));
        changes.push({ at: results.length, completion, job, next: this.afterAttempt(job, report, now) });
        results.push({ id, job });
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        results.push({ id, error });
      }
    }
    const holder = holderOf(worker);
    const actor: AuditActor = { kind: 'app', id: worker.clientId };
    const applied = await this.transactor.inTransaction(async (stores) => {
      const done: typeof changes = [];
      for (const change of changes) {
        const guard = { states: LEASED_JOB_STATES, leaseId: change.completion.leaseId, holder };
        if (await stores.jobs.updateJob(change.job.id, guard, { ...change.next, updatedAt: now })) {
          done.push(change);
        }
      }
      await this.recorded(
        stores,
        done.map(({ job, next, completion }) => ({
          job,
          state: next.state as JobState,
          actor,
          action: `job.attempt_${completion.report.outcome}`,
          attributes: { attempt: job.attempt },
        })),
        now,
      );
      return new Set(done);
    });
    for (const change of changes) {
      results[change.at] = applied.has(change)
        ? { id: change.job.id, job: { ...change.job, ...change.next, updatedAt: now } }
        : { id: change.job.id, error: leaseGone(change.job.id) };
    }
    if ([...applied].some((change) => change.next.state === 'QUEUED')) this.hooks.onQueued?.();
    return results;
  }

  /**
   * Ends what ran past its timeout (TIMED_OUT) and takes back what a worker stopped renewing:
   * requeued after the backoff while attempts remain, else FAILED; a job being cancelled,
   * CANCELLED. Every replica may sweep: each change is guarded by the lease it found.
   */
  async sweep(): Promise<number> {
    const now = this.clock.now();
    let swept = 0;
    for (const job of await this.jobs.listOverdueJobs(now, SWEEP_PAGE)) {
      const lease = job.lease as NonNullable<Job['lease']>;
      const next: Partial<Job> =
        job.deadlineAt !== null && job.deadlineAt <= now
          ? ended('TIMED_OUT', now, {
              code: 'timed_out',
              message: `ran past its timeout of ${job.timeoutSeconds} s`,
            })
          : job.state === 'CANCELLING'
            ? ended('CANCELLED', now, {
                code: 'cancelled',
                message: 'cancelled; its worker stopped renewing the lease',
              })
            : this.retryOrFail(job, now, {
                code: 'lease_expired',
                message: `worker ${lease.worker} stopped renewing its lease`,
              });
      const action = next.state === 'QUEUED' ? 'requeued' : (next.state as string).toLowerCase();
      const changed = await this.transition(
        job,
        { states: [job.state], leaseId: lease.id },
        next,
        now,
        PLATFORM_ACTOR,
        `job.${action}`,
        { attempt: job.attempt },
      );
      if (changed) {
        swept += 1;
        if (next.state === 'QUEUED') this.hooks.onQueued?.();
      }
    }
    return swept;
  }

  private afterAttempt(job: Job, report: JobOutcome, now: Date): Partial<Job> {
    if (report.outcome === 'succeeded') {
      return { ...ended('SUCCEEDED', now, null), output: report.output ?? null };
    }
    if (job.state === 'CANCELLING' || report.outcome === 'cancelled') {
      return ended('CANCELLED', now, { code: 'cancelled', message: 'cancelled while it ran' });
    }
    const message = String(report.message ?? '').slice(0, 2_000) || 'the worker reported a failure';
    if (report.retryable === false) return ended('FAILED', now, { code: 'worker_error', message });
    return this.retryOrFail(job, now, { code: 'worker_error', message });
  }

  private retryOrFail(job: Job, now: Date, error: Job['error'] & object): Partial<Job> {
    if (job.attempt >= job.retry.maxAttempts) return ended('FAILED', now, error);
    const { initialBackoffSeconds, maxBackoffSeconds } = job.retry;
    const backoff = Math.min(maxBackoffSeconds, initialBackoffSeconds * 2 ** (job.attempt - 1));
    return { state: 'QUEUED', lease: null, deadlineAt: null, runAfter: after(now, backoff), error };
  }

  /**
   * The job, when `worker` may work its tenant's jobs (403), `leaseId` is its current lease (409)
   * and `worker` is who claimed it (403: a lease id in other hands is worth nothing). `found`:
   * the job already read.
   */
  private async leased(
    worker: ActingPrincipal,
    id: string,
    leaseId: string,
    found?: Job | null,
  ): Promise<Job> {
    const job = found === undefined ? await this.jobs.findJob(id) : found;
    if (!job) throw notFound(`job ${id}`);
    await this.assertMayWork(worker, job.tenant);
    if (!LEASED_JOB_STATES.includes(job.state) || job.lease?.id !== leaseId) throw leaseGone(id);
    if (!holds(job.lease, worker)) throw forbidden(`job ${id} is leased to another worker`);
    return job;
  }

  /**
   * May `worker` work jobs of `tenant` ('' for every tenant)? The decision the backend's guard
   * asked, asked again here: a service principal with `jobs.work`, one bound to a tenant only in
   * it; never a user. A refusal in another tenant than the worker's own is audited.
   */
  private async assertMayWork(worker: ActingPrincipal, tenant: string): Promise<void> {
    const principal = policyPrincipalOf(worker);
    const decision = decide(principal, 'jobs.work', tenant);
    if (decision.effect === 'allow') return;
    if (decision.crossTenant === true)
      await this.hooks.refusals?.refused({ principal, action: 'jobs.work', tenant });
    const where = tenant === '' ? 'platform-wide' : `in tenant ${tenant}`;
    throw forbidden(`jobs.work refused ${where} (${decision.decidedBy.join(', ')}): ${decision.reason}`);
  }

  private async current(id: string): Promise<Job> {
    return (await this.jobs.findJob(id)) as Job;
  }

  /**
   * Applies `next` when the job is still as `guard` expects, with its event and audit record,
   * in one transaction; false when it was not (another change got there first).
   */
  private transition(
    job: Job,
    guard: JobGuard,
    next: Partial<Job>,
    now: Date,
    actor: AuditActor,
    action: string,
    attributes: Record<string, string | number>,
  ): Promise<boolean> {
    return this.transactor.inTransaction(async (stores) => {
      if (!(await stores.jobs.updateJob(job.id, guard, { ...next, updatedAt: now }))) return false;
      await this.recorded(stores, [{ job, state: next.state as JobState, actor, action, attributes }], now);
      return true;
    });
  }

  /** The state events of these changes and their audit records, each appended at once. */
  private async recorded(stores: Stores, changes: readonly RecordedChange[], now: Date): Promise<void> {
    if (changes.length === 0) return;
    await stores.jobs.appendJobEvents(changes.map(({ job, state }) => stateEvent(job, state, now)));
    await stores.audit.appendAuditRecords(
      changes.map(({ job, state, actor, action, attributes }) =>
        this.trail.record({
          actor,
          action,
          tenant: job.tenant,
          target: job.id,
          attributes: { ...attributes, state },
        }),
      ),
    );
  }

  private newJob(principal: ActingPrincipal, tenant: string, submission: JobSubmission): Job {
    if (typeof submission.type !== 'string' || !TYPE.test(submission.type)) {
      throw validationFailed('type must be 1 to 64 of a-z 0-9 . _ - starting with a letter');
    }
    checkJson('payload', submission.payload);
    const key = submission.idempotencyKey;
    if (key !== undefined && !KEY.test(key)) {
      throw validationFailed('idempotency_key must be 1 to 128 printable ASCII characters');
    }
    const retry = { ...JOB_DEFAULTS.retry, ...submission.retry };
    const now = this.clock.now();
    return {
      id: jobId(now),
      tenant,
      type: submission.type,
      payload: submission.payload ?? null,
      state: 'QUEUED',
      idempotencyKey: key ?? null,
      submittedBy: principal.id,
      timeoutSeconds: bounded(
        'timeout_seconds',
        submission.timeoutSeconds ?? JOB_DEFAULTS.timeoutSeconds,
        LIMITS.timeoutSeconds,
      ),
      retry: {
        maxAttempts: bounded('max_attempts', retry.maxAttempts, LIMITS.maxAttempts),
        initialBackoffSeconds: bounded(
          'initial_backoff_seconds',
          retry.initialBackoffSeconds,
          LIMITS.backoffSeconds,
        ),
        maxBackoffSeconds: bounded('max_backoff_seconds', retry.maxBackoffSeconds, LIMITS.backoffSeconds),
      },
      attempt: 0,
      runAfter: now,
      lease: null,
      deadlineAt: null,
      finishedAt: null,
      output: null,
      error: null,
      createdAt: now,
      updatedAt: now,
    };
  }
}

interface RecordedChange {
  job: Job;
  state: JobState;
  actor: AuditActor;
  action: string;
  attributes: Record<string, string | number>;
}

const stateEvent = (job: Job, state: JobState, at: Date): JobEventInput => ({
  jobId: job.id,
  kind: 'state',
  attempt: job.attempt,
  at,
  state,
  line: null,
});

let issued = 0;

/**
 * Time-ordered ids (listings page by id): milliseconds and a counter (so one process's ids of
 * the same millisecond keep their order) in base 36, then randomness.
 */
function jobId(now: Date): string {
  issued = (issued + 1) % 36 ** 4;
  const time = now.getTime().toString(36).padStart(9, '0');
  return `${time}${issued.toString(36).padStart(4, '0')}${randomUUID().replace(/-/g, '').slice(0, 12)}`;
}

const after = (now: Date, seconds: number) => new Date(now.getTime() + seconds * 1000);

function ended(state: JobState, now: Date, error: Job['error']): Partial<Job> {
  return { state, finishedAt: now, lease: null, deadlineAt: null, error };
}

function bounded(name: string, value: number, [min, max]: readonly [number, number]): number {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw validationFailed(`${name} must be a whole number from ${min} to ${max}`);
  }
  return value;
}

function checkJson(name: string, value: unknown): void {
  let json: string | undefined;
  try {
    json = JSON.stringify(value ?? null);
  } catch {
    json = undefined;
  }
  if (json === undefined || Buffer.byteLength(json) > MAX_JOB_JSON_BYTES) {
    throw validationFailed(`${name} must be JSON of at most ${MAX_JOB_JSON_BYTES} bytes`);
  }
}

/** The same key again: the same job when it asks for the same work, 409 when it does not. */
function sameSubmission(earlier: Job, again: Job): Job {
  if (earlier.type !== again.type || JSON.stringify(earlier.payload) !== JSON.stringify(again.payload)) {
    throw conflict(`idempotency key ${again.idempotencyKey} was used for another job (${earlier.id})`);
  }
  return earlier;
}

const forbidden = (message: string): DomainError => new DomainError('forbidden', message);

const holderOf = (worker: ActingPrincipal): JobLeaseHolder => ({
  worker: worker.clientId,
  workerTenant: worker.tenant,
});

const holds = (lease: JobLeaseHolder, worker: ActingPrincipal): boolean =>
  lease.worker === worker.clientId && lease.workerTenant === worker.tenant;

function leaseGone(id: string): DomainError {
  return conflict(`the lease on job ${id} is gone (expired, or the job ended): stop working on it`);
}
