import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { PlatformConfig } from '@platform/config';
import {
  type Clock,
  GroupCommit,
  type Quota,
  type QuotaAnswer,
  type QuotaBatchItem,
  type QuotaDemand,
  QuotaLedger,
  quotaWindow,
} from '@platform/domain';
import { RedisQuotaCounter } from '@platform/ratelimit';
import { CLOCK, PLATFORM_CONFIG } from '../platform/tokens';
import { ControlPlanePlans } from './control-plane-plans';

/** A demand's outcome: `null` when no quota of the tenant's plan limits the meter (nothing counted). */
export type Counted = (QuotaAnswer & { quota: Quota }) | null;

/**
 * Where this control plane counts (docs/plans.md, "Counting"): in Redis when QUOTA_REDIS_URL is
 * set, shared with every sidecar (each grant journaled and drained into the ledger), else in the
 * ledger itself, one transaction per consumption.
 */
@Injectable()
export class QuotaCounting implements OnApplicationShutdown {
  readonly redis: RedisQuotaCounter | undefined;
  /** The database's consumptions of one event-loop turn, in one transaction (the token path's load). */
  private readonly batched = new GroupCommit<QuotaBatchItem, QuotaAnswer>((batch) =>
    this.ledger.consumeAll(batch),
  );

  constructor(
    private readonly plans: ControlPlanePlans,
    private readonly ledger: QuotaLedger,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(PLATFORM_CONFIG) config: PlatformConfig,
  ) {
    const { redisUrl, redisPrefix } = config.quotas;
    this.redis = redisUrl === undefined ? undefined : new RedisQuotaCounter(redisUrl, redisPrefix);
  }

  /** Counts where the deployment counts. */
  async consume(demand: QuotaDemand): Promise<Counted> {
    const now = this.clock.now();
    const { quotas, zone } = this.plans.entitlements(demand.tenant, now);
    const quota = quotas[demand.meter];
    if (quota === undefined) return null;
    if (this.redis === undefined) return { ...(await this.batched.submit({ demand, quota, zone })), quota };
    const window = quotaWindow(now, quota.period, zone);
    const counted = await this.redis.consume(
      {
        ...demand,
        limit: quota.limit,
        hard: quota.enforcement === 'hard',
        thresholds: quota.thresholds,
        windowStart: window.start,
        windowEnd: window.end,
      },
      async () => (await this.ledger.usage(demand.tenant, demand.meter, quota, zone)).used,
    );
    return {
      granted: counted.granted,
      used: counted.used,
      limit: quota.limit,
      remaining: Math.max(0, quota.limit - counted.used),
      window,
      replayed: counted.replayed,
      quota,
    };
  }

  /** The durable count (the ledger), nothing counted: what the sidecars seed Redis with. */
  async read(tenant: string, meter: string): Promise<Counted> {
    const { quotas, zone } = this.plans.entitlements(tenant, this.clock.now());
    const quota = quotas[meter];
    if (quota === undefined) return null;
    return { ...(await this.ledger.usage(tenant, meter, quota, zone)), quota };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.redis?.close();
  }
}
