import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { epochMillis, numericId } from '../transformers';

/** One tenant's meter in one window (libs/domain `QuotaStore`): the durable count. */
@Entity('quota_usage')
export class QuotaUsageEntity {
  @PrimaryColumn({ type: 'varchar' })
  tenant: string;

  @PrimaryColumn({ type: 'varchar' })
  meter: string;

  @PrimaryColumn({ name: 'period_start', type: 'bigint', transformer: epochMillis })
  periodStart: Date;

  @Column({ name: 'period_end', type: 'bigint', transformer: epochMillis })
  periodEnd: Date;

  @Column({ type: 'bigint', transformer: numericId })
  used: number;

  @Column({ name: 'limit_units', type: 'bigint', transformer: numericId })
  limit: number;

  /** The threshold percentages announced in this window, comma-separated. */
  @Column({ type: 'varchar', default: '' })
  notified: string;

  @Column({ name: 'updated_at', type: 'bigint', transformer: epochMillis })
  updatedAt: Date;
}

/** An acknowledged consumption with its key, kept until its window ends (retries count once). */
@Entity('quota_consumptions')
@Index('idx_quota_consumptions_period_end', ['periodEnd'])
export class QuotaConsumptionEntity {
  @PrimaryColumn({ type: 'varchar' })
  tenant: string;

  @PrimaryColumn({ type: 'varchar' })
  meter: string;

  @PrimaryColumn({ name: 'period_start', type: 'bigint', transformer: epochMillis })
  periodStart: Date;

  @Column({ name: 'period_end', type: 'bigint', transformer: epochMillis })
  periodEnd: Date;

  @PrimaryColumn({ name: 'idempotency_key', type: 'varchar' })
  idempotencyKey: string;

  @Column({ type: 'bigint', transformer: numericId })
  units: number;

  @Column({ name: 'used_after', type: 'bigint', transformer: numericId })
  usedAfter: number;

  @Column({ name: 'recorded_at', type: 'bigint', transformer: epochMillis })
  recordedAt: Date;
}
