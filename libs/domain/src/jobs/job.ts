/**
 * A job (docs/jobs.md): a typed JSON payload a worker runs for a tenant, at least once, under a
 * lease it renews by heartbeat. google.longrunning's Operation is the model of the answer.
 */
export const JOB_STATES = [
  'QUEUED',
  'RUNNING',
  'SUCCEEDED',
  'FAILED',
  'CANCELLING',
  'CANCELLED',
  'TIMED_OUT',
] as const;
export type JobState = (typeof JOB_STATES)[number];

/** Where a job ends: no transition leaves these. */
export const FINAL_JOB_STATES: readonly JobState[] = ['SUCCEEDED', 'FAILED', 'CANCELLED', 'TIMED_OUT'];
/** A worker holds these under a lease. */
export const LEASED_JOB_STATES: readonly JobState[] = ['RUNNING', 'CANCELLING'];

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  /** The wait before the second attempt, doubling for each next one up to `maxBackoffSeconds`. */
  initialBackoffSeconds: number;
  maxBackoffSeconds: number;
}

export interface JobLease {
  /** Fences a worker's calls: a lease that expired and was given to another worker is refused. */
  id: string;
  /** The worker's client_id: with `workerTenant`, who alone may renew, log on and complete the job. */
  worker: string;
  /** The tenant the worker's app is bound to; null for an unbound (platform-wide) worker. */
  workerTenant: string | null;
  expiresAt: Date;
}

/** Who holds a lease: only they act under it (docs/jobs.md, "Lease identity"). */
export type JobLeaseHolder = Pick<JobLease, 'worker' | 'workerTenant'>;

export interface JobError {
  /** `worker_error`, `lease_expired`, `timed_out`, `cancelled`. */
  code: string;
  message: string;
}

export interface Job {
  /** Time-ordered: listings page by it. */
  id: string;
  tenant: string;
  type: string;
  payload: unknown;
  state: JobState;
  idempotencyKey: string | null;
  /** Who submitted it: a user id or a client_id. */
  submittedBy: string;
  /** How long one attempt may run before the job ends as TIMED_OUT. */
  timeoutSeconds: number;
  retry: RetryPolicy;
  /** Attempts started so far. */
  attempt: number;
  /** A queued job is not claimed before this (the backoff after a failed attempt). */
  runAfter: Date;
  lease: JobLease | null;
  /** The current attempt's end by the timeout; null unless leased. */
  deadlineAt: Date | null;
  finishedAt: Date | null;
  output: unknown;
  error: JobError | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A state change or a log line of a job, in the order they happened (`id` ascending). */
export interface JobEvent {
  id: number;
  jobId: string;
  kind: 'state' | 'log';
  attempt: number;
  at: Date;
  /** For `state`: the state entered. */
  state: JobState | null;
  /** For `log`: the line. */
  line: string | null;
}

export type JobEventInput = Omit<JobEvent, 'id'>;

export interface JobQuery {
  tenant: string;
  state?: JobState;
  type?: string;
  /** Jobs with a greater id (the previous page's last). */
  after?: string;
  limit: number;
}

export interface JobClaim {
  types: readonly string[];
  /** Only this tenant's jobs; every tenant's when absent. */
  tenant?: string;
  now: Date;
  /** Jobs taken at most. */
  limit: number;
  /** A new lease for each job taken. */
  leaseFor: (job: Job) => JobLease;
  deadlineAt: (job: Job) => Date;
}

/** What a change expects of the job it changes. */
export interface JobGuard {
  states: readonly JobState[];
  leaseId?: string;
  holder?: JobLeaseHolder;
}

export interface JobStore {
  /**
   * Inserts the jobs, answering for each, in order, 'duplicate' when the tenant has a job with
   * the same idempotency key (an earlier one, or one before it in the list).
   */
  insertJobs(jobs: readonly Job[]): Promise<Array<'created' | 'duplicate'>>;
  findJob(id: string): Promise<Job | null>;
  /** The jobs of these ids that exist, in no particular order. */
  findJobs(ids: readonly string[]): Promise<Job[]>;
  findJobByIdempotencyKey(tenant: string, key: string): Promise<Job | null>;
  listJobs(query: JobQuery): Promise<Job[]>;
  /**
   * Takes up to `limit` of the oldest claimable jobs (QUEUED, of one of the types, `runAfter`
   * passed), each under its own lease: RUNNING, one more attempt; oldest first. Two claimers
   * never take the same job (on Postgres the candidate rows are locked `FOR UPDATE SKIP LOCKED`;
   * SQLite has one writer). Empty: none.
   */
  claimJobs(claim: JobClaim): Promise<Job[]>;
  /**
   * Applies `change` when the job is in one of `states` (and under lease `leaseId` held by
   * `holder`, when given); false when it was not (a cancel that lost to a completion, a worker
   * whose lease is gone, another principal holding the lease id).
   */
  updateJob(
    id: string,
    guard: JobGuard,
    change: Partial<Omit<Job, 'id' | 'tenant' | 'type' | 'payload' | 'createdAt'>>,
  ): Promise<boolean>;
  /** Leased jobs whose lease expired or whose deadline passed, oldest first. */
  listOverdueJobs(now: Date, limit: number): Promise<Job[]>;
  appendJobEvents(events: readonly JobEventInput[]): Promise<void>;
  /** The job's events of one kind with an id above `afterId`, ascending. */
  listJobEvents(jobId: string, kind: JobEvent['kind'], afterId: number, limit: number): Promise<JobEvent[]>;
}
