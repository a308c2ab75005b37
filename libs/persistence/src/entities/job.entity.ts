import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { epochMillis, numericId } from '../transformers';

/** Jobs of the job queue (docs/jobs.md), one row each, its lease included. */
@Entity('jobs')
@Index('uq_jobs_idempotency', ['tenant', 'idempotencyKey'], { unique: true })
@Index('ix_jobs_claim', ['state', 'type', 'runAfter'])
@Index('ix_jobs_tenant', ['tenant', 'id'])
@Index('ix_jobs_lease', ['state', 'leaseExpiresAt'])
export class JobEntity {
  @PrimaryColumn({ type: 'varchar' })
  id: string;

  @Column({ type: 'varchar' })
  tenant: string;

  @Column({ type: 'varchar' })
  type: string;

  /** JSON. */
  @Column({ type: 'text' })
  payload: string;

  @Column({ type: 'varchar' })
  state: string;

  @Column({ name: 'idempotency_key', type: 'varchar', nullable: true })
  idempotencyKey: string | null;

  @Column({ name: 'submitted_by', type: 'varchar' })
  submittedBy: string;

  @Column({ name: 'timeout_seconds', type: 'integer' })
  timeoutSeconds: number;

  @Column({ name: 'max_attempts', type: 'integer' })
  maxAttempts: number;

  @Column({ name: 'initial_backoff_seconds', type: 'integer' })
  initialBackoffSeconds: number;

  @Column({ name: 'max_backoff_seconds', type: 'integer' })
  maxBackoffSeconds: number;

  @Column({ type: 'integer' })
  attempt: number;

  @Column({ name: 'run_after', type: 'bigint', transformer: epochMillis })
  runAfter: Date;

  @Column({ name: 'lease_id', type: 'varchar', nullable: true })
  leaseId: string | null;

  @Column({ name: 'lease_worker', type: 'varchar', nullable: true })
  leaseWorker: string | null;

  /** The tenant the lease's worker is bound to; null for an unbound worker (or no lease). */
  @Column({ name: 'lease_worker_tenant', type: 'varchar', nullable: true })
  leaseWorkerTenant: string | null;

  @Column({ name: 'lease_expires_at', type: 'bigint', nullable: true, transformer: epochMillis })
  leaseExpiresAt: Date | null;

  @Column({ name: 'deadline_at', type: 'bigint', nullable: true, transformer: epochMillis })
  deadlineAt: Date | null;

  @Column({ name: 'finished_at', type: 'bigint', nullable: true, transformer: epochMillis })
  finishedAt: Date | null;

  /** JSON; null until it succeeded. */
  @Column({ type: 'text', nullable: true })
  output: string | null;

  @Column({ name: 'error_code', type: 'varchar', nullable: true })
  errorCode: string | null;

  @Column({ name: 'error_message', type: 'text', nullable: true })
  errorMessage: string | null;

  @Column({ name: 'created_at', type: 'bigint', transformer: epochMillis })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'bigint', transformer: epochMillis })
  updatedAt: Date;
}

/** A job's state changes and log lines, in order. */
@Entity('job_events')
@Index('ix_job_events_job', ['jobId', 'kind', 'id'])
export class JobEventEntity {
  @PrimaryColumn({ type: 'integer', generated: 'increment', transformer: numericId })
  id: number;

  @Column({ name: 'job_id', type: 'varchar' })
  jobId: string;

  @Column({ type: 'varchar' })
  kind: string;

  @Column({ type: 'integer' })
  attempt: number;

  @Column({ type: 'bigint', transformer: epochMillis })
  at: Date;

  @Column({ type: 'varchar', nullable: true })
  state: string | null;

  @Column({ type: 'text', nullable: true })
  line: string | null;
}
