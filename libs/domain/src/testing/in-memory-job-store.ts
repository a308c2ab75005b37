import type { Job, JobClaim, JobEvent, JobEventInput, JobGuard, JobQuery, JobStore } from '../jobs/job';
import { LEASED_JOB_STATES } from '../jobs/job';

const copy = <T>(value: T): T => structuredClone(value);
/** A leased job's lease expiry (a leased job always has a lease: no NULL to order). */
const leaseExpiry = (job: Job): number => job.lease?.expiresAt.getTime() ?? Infinity;

export class InMemoryJobStore implements JobStore {
  private rows: Job[] = [];
  private events: JobEvent[] = [];

  async insertJobs(jobs: readonly Job[]): Promise<Array<'created' | 'duplicate'>> {
    const inserted: Array<'created' | 'duplicate'> = [];
    for (const job of jobs) inserted.push(this.insertJob(job));
    return inserted;
  }

  private insertJob(job: Job): 'created' | 'duplicate' {
    const clash = this.rows.some(
      (j) =>
        j.id === job.id ||
        (job.idempotencyKey !== null && j.tenant === job.tenant && j.idempotencyKey === job.idempotencyKey),
    );
    if (clash) return 'duplicate';
    this.rows.push(copy(job));
    return 'created';
  }

  async findJob(id: string): Promise<Job | null> {
    const found = this.rows.find((j) => j.id === id);
    return found ? copy(found) : null;
  }

  async findJobs(ids: readonly string[]): Promise<Job[]> {
    return this.rows.filter((j) => ids.includes(j.id)).map(copy);
  }

  async findJobByIdempotencyKey(tenant: string, key: string): Promise<Job | null> {
    const found = this.rows.find((j) => j.tenant === tenant && j.idempotencyKey === key);
    return found ? copy(found) : null;
  }

  async listJobs(query: JobQuery): Promise<Job[]> {
    return this.rows
      .filter(
        (j) =>
          j.tenant === query.tenant &&
          (query.state === undefined || j.state === query.state) &&
          (query.type === undefined || j.type === query.type) &&
          (query.after === undefined || j.id > query.after),
      )
      .sort((a, b) => (a.id < b.id ? -1 : 1))
      .slice(0, query.limit)
      .map(copy);
  }

  async claimJobs(claim: JobClaim): Promise<Job[]> {
    const candidates = this.rows
      .filter(
        (j) =>
          j.state === 'QUEUED' &&
          claim.types.includes(j.type) &&
          (claim.tenant === undefined || j.tenant === claim.tenant) &&
          j.runAfter.getTime() <= claim.now.getTime(),
      )
      .sort((a, b) => a.runAfter.getTime() - b.runAfter.getTime() || (a.id < b.id ? -1 : 1))
      .slice(0, claim.limit);
    return candidates.map((candidate) => {
      Object.assign(candidate, {
        state: 'RUNNING',
        attempt: candidate.attempt + 1,
        lease: copy(claim.leaseFor(candidate)),
        deadlineAt: claim.deadlineAt(candidate),
        updatedAt: claim.now,
      });
      return copy(candidate);
    });
  }

  async updateJob(id: string, guard: JobGuard, change: Partial<Job>): Promise<boolean> {
    const row = this.rows.find((j) => j.id === id);
    if (!row || !guard.states.includes(row.state)) return false;
    if (guard.leaseId !== undefined && row.lease?.id !== guard.leaseId) return false;
    const { holder } = guard;
    if (holder && (row.lease?.worker !== holder.worker || row.lease.workerTenant !== holder.workerTenant)) {
      return false;
    }
    Object.assign(row, copy(change));
    return true;
  }

  async listOverdueJobs(now: Date, limit: number): Promise<Job[]> {
    return this.rows
      .filter(
        (j) =>
          LEASED_JOB_STATES.includes(j.state) &&
          ((j.lease !== null && j.lease.expiresAt <= now) || (j.deadlineAt !== null && j.deadlineAt <= now)),
      )
      .sort((x, y) => leaseExpiry(x) - leaseExpiry(y) || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0))
      .slice(0, limit)
      .map(copy);
  }

  async appendJobEvents(events: readonly JobEventInput[]): Promise<void> {
    for (const event of events) this.events.push({ ...copy(event), id: this.events.length + 1 });
  }

  async listJobEvents(
    jobId: string,
    kind: JobEvent['kind'],
    afterId: number,
    limit: number,
  ): Promise<JobEvent[]> {
    return this.events
      .filter((e) => e.jobId === jobId && e.kind === kind && e.id > afterId)
      .slice(0, limit)
      .map(copy);
  }

  snapshot(): unknown {
    return copy({ rows: this.rows, events: this.events });
  }

  restore(state: unknown): void {
    ({ rows: this.rows, events: this.events } = state as { rows: Job[]; events: JobEvent[] });
  }
}
