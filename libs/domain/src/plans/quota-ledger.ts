import { PLATFORM_ACTOR, type AuditTrail } from '../audit/audit-trail';
import type { Clock } from '../clock';
import type { Transactor } from '../storage';
import type { Quota } from './plan';
import { quotaWindow, type QuotaWindow } from './quota-period';
import type { QuotaUsage, UsageKey } from './quota-store';

/** A consumption asked of a tenant's meter: `units` (may be 0: a read that counts nothing). */
export interface QuotaDemand {
  tenant: string;
  meter: string;
  units: number;
  /** The same key within a window answers the first answer again and counts nothing more. */
  idempotencyKey?: string;
}

export interface QuotaAnswer {
  granted: boolean;
  used: number;
  limit: number;
  remaining: number;
  window: QuotaWindow;
  /** A retry with a key already counted: the first answer, nothing counted again. */
  replayed: boolean;
}

/** A consumption another engine already granted (Redis), recorded here to be durable. */
export interface GrantedConsumption extends QuotaDemand {
  idempotencyKey: string;
  window: QuotaWindow;
  quota: Pick<Quota, 'limit' | 'thresholds'>;
  at: Date;
}

/** One consumption of a batch, with the quota and zone it counts under. */
export interface QuotaBatchItem {
  demand: QuotaDemand;
  quota: Quota;
  zone: string;
}

const usageId = (key: UsageKey) => `${key.tenant}\u0000${key.meter}\u0000${key.periodStart.getTime()}`;

export const QUOTA_THRESHOLD_ACTION = 'quota.threshold_reached';

/**
 * The durable count of every tenant's meters (docs/plans.md): check-and-consume in one
 * transaction when the control plane counts, or the record of what Redis granted. Either way a
 * threshold crossed is audited in the same transaction (the audit log is the webhooks' outbox),
 * once a window.
 */
export class QuotaLedger {
  constructor(
    private readonly transactor: Transactor,
    private readonly trail: AuditTrail,
    private readonly clock: Clock,
  ) {}

  async consume(demand: QuotaDemand, quota: Quota, zone: string): Promise<QuotaAnswer> {
    const [answered] = await this.consumeAll([{ demand, quota, zone }]);
    return answered;
  }

  /**
   * Several consumptions in one transaction (a group commit), answered each in order as if alone.
   * Their windows are locked first, in one order, so two control planes never deadlock.
   */
  consumeAll(batch: readonly QuotaBatchItem[]): Promise<QuotaAnswer[]> {
    const now = this.clock.now();
    const items = batch.map(({ demand, quota, zone }) => {
      const window = quotaWindow(now, quota.period, zone);
      const key: UsageKey = { tenant: demand.tenant, meter: demand.meter, periodStart: window.start };
      return { demand, quota, window, key, id: usageId(key) };
    });
    return this.transactor.inTransaction(async (stores) => {
      const usages = new Map<string, QuotaUsage>();
      for (const { id, key, window, quota } of [...items].sort((a, b) =>
        a.id < b.id ? -1 : a.id > b.id ? 1 : 0,
      )) {
        if (!usages.has(id)) usages.set(id, await stores.quotas.lockUsage(key, window.end, quota.limit, now));
      }
      const answers: QuotaAnswer[] = [];
      const counted = new Set<QuotaUsage>();
      for (const { demand, quota, window, key, id } of items) {
        const usage = usages.get(id) as QuotaUsage;
        const earlier =
          demand.idempotencyKey === undefined
            ? null
            : await stores.quotas.findConsumption(key, demand.idempotencyKey);
        if (earlier) answers.push(answer(true, earlier.usedAfter, quota.limit, window, true));
        else if (quota.enforcement === 'hard' && usage.used + demand.units > quota.limit) {
          answers.push(answer(false, usage.used, quota.limit, window, false));
        } else {
          await this.count(stores, usage, demand.units, quota, now, demand.idempotencyKey ?? null);
          counted.add(usage);
          answers.push(answer(true, usage.used, quota.limit, window, false));
        }
      }
      // One write per window however many of the batch counted in it.
      for (const usage of counted) await stores.quotas.saveUsage(usage);
      return answers;
    });
  }

  /**
   * Records what Redis granted, in one transaction (a journal batch); a consumption already
   * recorded (an entry delivered again after a crash) is skipped.
   */
  recordAll(consumptions: readonly GrantedConsumption[]): Promise<void> {
    return this.transactor.inTransaction(async (stores) => {
      for (const consumption of consumptions) {
        const key: UsageKey = {
          tenant: consumption.tenant,
          meter: consumption.meter,
          periodStart: consumption.window.start,
        };
        const usage = await stores.quotas.lockUsage(
          key,
          consumption.window.end,
          consumption.quota.limit,
          consumption.at,
        );
        if (await stores.quotas.findConsumption(key, consumption.idempotencyKey)) continue;
        await this.count(
          stores,
          usage,
          consumption.units,
          consumption.quota,
          consumption.at,
          consumption.idempotencyKey,
        );
        await stores.quotas.saveUsage(usage);
      }
    });
  }

  /** The window in force now, as counted durably (0 when nothing was). */
  async usage(tenant: string, meter: string, quota: Quota, zone: string): Promise<QuotaAnswer> {
    const window = quotaWindow(this.clock.now(), quota.period, zone);
    return this.transactor.inTransaction(async (stores) => {
      const usage = await stores.quotas.findUsage({ tenant, meter, periodStart: window.start });
      return answer(true, usage?.used ?? 0, quota.limit, window, false);
    });
  }

  /** A meter's windows, newest first. */
  history(tenant: string, meter: string, limit: number): Promise<QuotaUsage[]> {
    return this.transactor.inTransaction((stores) => stores.quotas.listUsage(tenant, meter, limit));
  }

  /** Counts `units` in `usage` (the caller saves it), with the consumption and thresholds crossed. */
  private async count(
    stores: Parameters<Parameters<Transactor['inTransaction']>[0]>[0],
    usage: QuotaUsage,
    units: number,
    quota: Pick<Quota, 'limit' | 'thresholds'>,
    now: Date,
    idempotencyKey: string | null,
  ): Promise<void> {
    const before = usage.used;
    usage.used += units;
    usage.limit = quota.limit;
    usage.updatedAt = now;
    const crossed = quota.thresholds.filter(
      (t) =>
        !usage.notified.includes(t) &&
        reached(usage.used, quota.limit, t) &&
        !reached(before, quota.limit, t),
    );
    usage.notified = [...usage.notified, ...crossed].sort((a, b) => a - b);
    if (idempotencyKey !== null) {
      await stores.quotas.addConsumption({
        ...usage,
        idempotencyKey,
        units,
        usedAfter: usage.used,
        recordedAt: now,
      });
    }
    if (crossed.length > 0) {
      await stores.audit.appendAuditRecords(
        crossed.map((threshold) =>
          this.trail.record({
            actor: PLATFORM_ACTOR,
            action: QUOTA_THRESHOLD_ACTION,
            target: usage.meter,
            tenant: usage.tenant,
            attributes: {
              threshold: String(threshold),
              used: String(usage.used),
              limit: String(quota.limit),
              period_start: usage.periodStart.toISOString(),
              period_end: usage.periodEnd.toISOString(),
            },
            occurredAt: now,
          }),
        ),
      );
    }
  }
}

/** `used` is at or past `percent` of `limit` (a limit of 0 is reached by any use). */
const reached = (used: number, limit: number, percent: number) =>
  limit === 0 ? used > 0 : used * 100 >= limit * percent;

function answer(
  granted: boolean,
  used: number,
  limit: number,
  window: QuotaWindow,
  replayed: boolean,
): QuotaAnswer {
  return { granted, used, limit, remaining: Math.max(0, limit - used), window, replayed };
}
