import type { QuotaConsumption, QuotaStore, QuotaUsage, UsageKey } from '@platform/domain';
import type { EntityManager } from 'typeorm';
import { QuotaConsumptionEntity, QuotaUsageEntity } from '../entities/quota.entity';
import { pruneBatch } from './prune-batch';

export class TypeOrmQuotaStore implements QuotaStore {
  private readonly postgres: boolean;

  constructor(private readonly manager: EntityManager) {
    this.postgres = manager.connection.options.type === 'postgres';
  }

  async lockUsage(key: UsageKey, periodEnd: Date, limit: number, now: Date): Promise<QuotaUsage> {
    await this.manager
      .createQueryBuilder()
      .insert()
      .into(QuotaUsageEntity)
      .values({ ...key, periodEnd, used: 0, limit, notified: '', updatedAt: now })
      .orIgnore()
      .updateEntity(false)
      .execute();
    const select = this.manager
      .createQueryBuilder(QuotaUsageEntity, 'u')
      .where('u.tenant = :tenant AND u.meter = :meter AND u.period_start = :start', {
        tenant: key.tenant,
        meter: key.meter,
        start: key.periodStart.getTime(),
      });
    // Postgres: the row lock orders concurrent consumers; SQLite has a single writer already.
    if (this.postgres) select.setLock('pessimistic_write');
    return toUsage(await select.getOneOrFail());
  }

  async saveUsage(usage: QuotaUsage): Promise<void> {
    await this.manager.update(
      QuotaUsageEntity,
      { tenant: usage.tenant, meter: usage.meter, periodStart: usage.periodStart },
      {
        used: usage.used,
        limit: usage.limit,
        notified: usage.notified.join(','),
        updatedAt: usage.updatedAt,
      },
    );
  }

  async findConsumption(key: UsageKey, idempotencyKey: string): Promise<QuotaConsumption | null> {
    return this.manager.findOneBy(QuotaConsumptionEntity, { ...key, idempotencyKey });
  }

  async addConsumption(consumption: QuotaConsumption): Promise<void> {
    const { tenant, meter, periodStart, periodEnd, idempotencyKey, units, usedAfter, recordedAt } =
      consumption;
    await this.manager
      .createQueryBuilder()
      .insert()
      .into(QuotaConsumptionEntity)
      .values({ tenant, meter, periodStart, periodEnd, idempotencyKey, units, usedAfter, recordedAt })
      .updateEntity(false)
      .execute();
  }

  async findUsage(key: UsageKey): Promise<QuotaUsage | null> {
    const row = await this.manager.findOneBy(QuotaUsageEntity, key);
    return row && toUsage(row);
  }

  async listUsage(tenant: string, meter: string, limit: number): Promise<QuotaUsage[]> {
    const rows = await this.manager.find(QuotaUsageEntity, {
      where: { tenant, meter },
      order: { periodStart: 'DESC' },
      take: limit,
    });
    return rows.map(toUsage);
  }

  /** Whole windows at a time: the consumptions of at most `limit` window ends per batch. */
  pruneConsumptions(before: Date, limit: number): Promise<number> {
    return pruneBatch(
      this.manager,
      QuotaConsumptionEntity,
      'period_end',
      'SELECT DISTINCT period_end FROM quota_consumptions WHERE period_end < :before ORDER BY period_end LIMIT :limit',
      { before: before.getTime(), limit },
    );
  }
}

function toUsage(row: QuotaUsageEntity): QuotaUsage {
  return {
    tenant: row.tenant,
    meter: row.meter,
    periodStart: row.periodStart,
    periodEnd: row.periodEnd,
    used: row.used,
    limit: row.limit,
    notified: row.notified === '' ? [] : row.notified.split(',').map(Number),
    updatedAt: row.updatedAt,
  };
}
