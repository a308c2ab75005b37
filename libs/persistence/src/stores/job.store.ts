import type {
  Job,
  JobClaim,
  JobEvent,
  JobEventInput,
  JobGuard,
  JobQuery,
  JobState,
  JobStore,
} from '@platform/domain';
import { LEASED_JOB_STATES } from '@platform/domain';
import { Brackets, type EntityManager, type FindOptionsWhere, In, IsNull, MoreThan } from 'typeorm';
import { JobEntity, JobEventEntity } from '../entities/job.entity';
import { insertOnce } from './insert-once';

/** Rows of one multi-row INSERT: well under either database's bound on bound parameters. */
const INSERT_CHUNK = 100;

export class TypeOrmJobStore implements JobStore {
  private readonly postgres: boolean;

  constructor(private readonly manager: EntityManager) {
    this.postgres = manager.connection.options.type === 'postgres';
  }

  /**
   * Jobs without an idempotency key cannot clash (their ids are new): one multi-row INSERT per
   * chunk. A job with a key is inserted alone, under a savepoint, so that its clash is a
   * 'duplicate' rather than the end of the transaction.
   */
  async insertJobs(jobs: readonly Job[]): Promise<Array<'created' | 'duplicate'>> {
    const keyless = jobs.filter((job) => job.idempotencyKey === null);
    for (let i = 0; i < keyless.length; i += INSERT_CHUNK) {
      await this.manager
        .createQueryBuilder()
        .insert()
        .into(JobEntity)
        .values(keyless.slice(i, i + INSERT_CHUNK).map(toRow))
        .updateEntity(false)
        .execute();
    }
    const inserted: Array<'created' | 'duplicate'> = [];
    for (const job of jobs) {
      inserted.push(
        job.idempotencyKey === null ? 'created' : await insertOnce(this.manager, JobEntity, toRow(job)),
      );
    }
    return inserted;
  }

  async findJob(id: string): Promise<Job | null> {
    const row = await this.manager.findOneBy(JobEntity, { id });
    return row && toJob(row);
  }

  async findJobs(ids: readonly string[]): Promise<Job[]> {
    if (ids.length === 0) return [];
    return (await this.manager.findBy(JobEntity, { id: In([...ids]) })).map(toJob);
  }

  async findJobByIdempotencyKey(tenant: string, key: string): Promise<Job | null> {
    const row = await this.manager.findOneBy(JobEntity, { tenant, idempotencyKey: key });
    return row && toJob(row);
  }

  async listJobs(query: JobQuery): Promise<Job[]> {
    const rows = await this.manager.find(JobEntity, {
      where: {
        tenant: query.tenant,
        ...(query.state && { state: query.state }),
        ...(query.type && { type: query.type }),
        ...(query.after !== undefined && { id: MoreThan(query.after) }),
      },
      order: { id: 'ASC' },
      take: query.limit,
    });
    return rows.map(toJob);
  }

  claimJobs(claim: JobClaim): Promise<Job[]> {
    const claimIn = async (m: EntityManager): Promise<Job[]> => {
      const select = m
        .createQueryBuilder(JobEntity, 'j')
        .where('j.state = :queued', { queued: 'QUEUED' })
        .andWhere('j.type IN (:...types)', { types: [...claim.types] })
        .andWhere('j.runAfter <= :now', { now: claim.now.getTime() })
        .orderBy('j.runAfter', 'ASC')
        .addOrderBy('j.id', 'ASC')
        .limit(claim.limit);
      if (claim.tenant !== undefined) select.andWhere('j.tenant = :tenant', { tenant: claim.tenant });
      // Concurrent claimers on Postgres pass over rows another is taking instead of queueing on them.
      if (this.postgres) select.setLock('pessimistic_write').setOnLocked('skip_locked');
      const claimed: Job[] = [];
      for (const row of await select.getMany()) {
        const queued = toJob(row);
        const job: Job = {
          ...queued,
          state: 'RUNNING',
          attempt: queued.attempt + 1,
          lease: claim.leaseFor(queued),
          deadlineAt: claim.deadlineAt(queued),
          updatedAt: claim.now,
        };
        const result = await m.update(JobEntity, { id: row.id, state: 'QUEUED' }, changeOf(job));
        if (result.affected === 1) claimed.push(job);
      }
      return claimed;
    };
    return this.manager.queryRunner?.isTransactionActive
      ? claimIn(this.manager)
      : this.manager.transaction(claimIn);
  }

  async updateJob(id: string, guard: JobGuard, change: Partial<Job>): Promise<boolean> {
    const where: FindOptionsWhere<JobEntity> = { id, state: In([...guard.states]) };
    if (guard.leaseId !== undefined) where.leaseId = guard.leaseId;
    if (guard.holder !== undefined) {
      where.leaseWorker = guard.holder.worker;
      where.leaseWorkerTenant = guard.holder.workerTenant ?? IsNull();
    }
    const result = await this.manager.update(JobEntity, where, changeOf(change));
    return result.affected === 1;
  }

  async listOverdueJobs(now: Date, limit: number): Promise<Job[]> {
    const rows = await this.manager
      .createQueryBuilder(JobEntity, 'j')
      .where('j.state IN (:...states)', { states: [...LEASED_JOB_STATES] })
      .andWhere(
        new Brackets((b) =>
          b.where('j.leaseExpiresAt <= :now', { now: now.getTime() }).orWhere('j.deadlineAt <= :now'),
        ),
      )
      .orderBy('j.leaseExpiresAt', 'ASC')
      .addOrderBy('j.id', 'ASC')
      .limit(limit)
      .getMany();
    return rows.map(toJob);
  }

  async appendJobEvents(events: readonly JobEventInput[]): Promise<void> {
    if (events.length === 0) return;
    await this.manager.insert(
      JobEventEntity,
      events.map((e) => ({
        jobId: e.jobId,
        kind: e.kind,
        attempt: e.attempt,
        at: e.at,
        state: e.state,
        line: e.line,
      })),
    );
  }

  async listJobEvents(
    jobId: string,
    kind: JobEvent['kind'],
    afterId: number,
    limit: number,
  ): Promise<JobEvent[]> {
    const rows = await this.manager.find(JobEventEntity, {
      where: { jobId, kind, id: MoreThan(afterId) },
      order: { id: 'ASC' },
      take: limit,
    });
    return rows.map((row) => ({
      id: row.id,
      jobId: row.jobId,
      kind: row.kind as JobEvent['kind'],
      attempt: row.attempt,
      at: row.at,
      state: row.state as JobState | null,
      line: row.line,
    }));
  }
}

/** What a job's state change can set. */
type ChangedColumn =
  | 'state'
  | 'attempt'
  | 'runAfter'
  | 'leaseId'
  | 'leaseWorker'
  | 'leaseWorkerTenant'
  | 'leaseExpiresAt'
  | 'deadlineAt'
  | 'finishedAt'
  | 'output'
  | 'errorCode'
  | 'errorMessage'
  | 'updatedAt';

/** The columns a (partial) job sets. */
function changeOf(change: Partial<Job>): Partial<Pick<JobEntity, ChangedColumn>> {
  const row: Partial<JobEntity> = {};
  if (change.state !== undefined) row.state = change.state;
  if (change.attempt !== undefined) row.attempt = change.attempt;
  if (change.runAfter !== undefined) row.runAfter = change.runAfter;
  if (change.lease !== undefined) {
    row.leaseId = change.lease?.id ?? null;
    row.leaseWorker = change.lease?.worker ?? null;
    row.leaseWorkerTenant = change.lease?.workerTenant ?? null;
    row.leaseExpiresAt = change.lease?.expiresAt ?? null;
  }
  if (change.deadlineAt !== undefined) row.deadlineAt = change.deadlineAt;
  if (change.finishedAt !== undefined) row.finishedAt = change.finishedAt;
  if (change.output !== undefined) row.output = JSON.stringify(change.output);
  if (change.error !== undefined) {
    row.errorCode = change.error?.code ?? null;
    row.errorMessage = change.error?.message ?? null;
  }
  if (change.updatedAt !== undefined) row.updatedAt = change.updatedAt;
  return row;
}

function toRow(job: Job): JobEntity {
  return {
    id: job.id,
    tenant: job.tenant,
    type: job.type,
    payload: JSON.stringify(job.payload),
    idempotencyKey: job.idempotencyKey,
    submittedBy: job.submittedBy,
    timeoutSeconds: job.timeoutSeconds,
    maxAttempts: job.retry.maxAttempts,
    initialBackoffSeconds: job.retry.initialBackoffSeconds,
    maxBackoffSeconds: job.retry.maxBackoffSeconds,
    createdAt: job.createdAt,
    ...(changeOf(job) as Pick<JobEntity, ChangedColumn>),
  };
}

function toJob(row: JobEntity): Job {
  return {
    id: row.id,
    tenant: row.tenant,
    type: row.type,
    payload: JSON.parse(row.payload) as unknown,
    state: row.state as JobState,
    idempotencyKey: row.idempotencyKey,
    submittedBy: row.submittedBy,
    timeoutSeconds: row.timeoutSeconds,
    retry: {
      maxAttempts: row.maxAttempts,
      initialBackoffSeconds: row.initialBackoffSeconds,
      maxBackoffSeconds: row.maxBackoffSeconds,
    },
    attempt: row.attempt,
    runAfter: row.runAfter,
    lease:
      row.leaseId !== null && row.leaseWorker !== null && row.leaseExpiresAt !== null
        ? {
            id: row.leaseId,
            worker: row.leaseWorker,
            workerTenant: row.leaseWorkerTenant,
            expiresAt: row.leaseExpiresAt,
          }
        : null,
    deadlineAt: row.deadlineAt,
    finishedAt: row.finishedAt,
    output: row.output === null ? null : (JSON.parse(row.output) as unknown),
    error: row.errorCode !== null ? { code: row.errorCode, message: row.errorMessage ?? '' } : null,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
