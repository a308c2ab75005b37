import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { quotaWindow, type Clock, type Quota, type QuotaWindow } from '@platform/domain';
import { RedisQuotaCounter } from '@platform/ratelimit';
import { CLOCK } from '../clock';
import { SIDECAR_CONFIG, type SidecarConfig } from '../config/sidecar-config';
import { ControlPlaneApi } from '../control-plane/control-plane-api';
import { SidecarError } from '../errors';
import { TenantPlans } from './tenant-plans';

/** Units asked of a tenant's meter; 0 reads the window's count and counts nothing. */
export interface QuotaDemand {
  tenant: string;
  meter: string;
  units: number;
  /** The same key within the meter's window answers the first consumption again. */
  idempotencyKey?: string;
}

/** What a demand got: no quota limits the meter, or the quota's verdict and count. */
export type QuotaOutcome =
  | { limited: false }
  | {
      limited: true;
      /** The units were counted; false: past a hard limit, nothing counted. */
      granted: boolean;
      /** An idempotency key already counted: its first count, nothing counted again. */
      replayed: boolean;
      /** The window's count (the consumption included when granted). */
      used: number;
      limit: number;
      enforcement: Quota['enforcement'];
      window: QuotaWindow;
    };

/**
 * Where the quota service counts (docs/plans.md, "Counting"): in the Redis every sidecar and
 * control plane share when QUOTA_REDIS_URL is set (RedisQuotaCounter: check, count, remember the
 * key and journal the grant in one script, on the plans this sidecar holds; the control plane
 * drains the journal into its durable count and seeds a window Redis does not hold), else at
 * the control plane (`POST /internal/v1/quotas/consume`, its database's locked count). There is
 * no fallback from one to the other: two counts kept apart would grant more than the limit, so
 * a Redis or a control plane that does not answer is UNAVAILABLE, nothing counted.
 */
@Injectable()
export class QuotaCounting implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('Quotas');
  private readonly redis: RedisQuotaCounter | undefined;

  constructor(
    @Inject(SIDECAR_CONFIG) config: SidecarConfig,
    private readonly controlPlane: ControlPlaneApi,
    private readonly plans: TenantPlans,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    this.redis =
      config.quotaRedisUrl === undefined
        ? undefined
        : new RedisQuotaCounter(config.quotaRedisUrl, config.quotaRedisPrefix);
  }

  /** Which engine counts: for logs, metrics and specs. */
  get engine(): 'redis' | 'control-plane' {
    return this.redis ? 'redis' : 'control-plane';
  }

  /** Waits (briefly) for Redis, so a sidecar starting beside it does not refuse its first calls. */
  async onModuleInit(): Promise<void> {
    if (this.redis && !(await this.redis.ready())) {
      this.logger.warn('Redis for quotas is not reachable yet: ConsumeQuota answers UNAVAILABLE until it is');
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.redis?.close();
  }

  consume(demand: QuotaDemand): Promise<QuotaOutcome> {
    return this.redis ? this.inRedis(this.redis, demand) : this.atControlPlane(demand);
  }

  private async inRedis(counter: RedisQuotaCounter, demand: QuotaDemand): Promise<QuotaOutcome> {
    const entitlements = this.plans.entitlements(demand.tenant);
    const quota = entitlements.quotas[demand.meter];
    if (quota === undefined) return { limited: false };
    const window = quotaWindow(this.clock.now(), quota.period, entitlements.zone);
    let answer;
    try {
      answer = await counter.consume(
        {
          tenant: demand.tenant,
          meter: demand.meter,
          units: demand.units,
          ...(demand.idempotencyKey !== undefined && { idempotencyKey: demand.idempotencyKey }),
          limit: quota.limit,
          hard: quota.enforcement === 'hard',
          thresholds: quota.thresholds,
          windowStart: window.start,
          windowEnd: window.end,
        },
        () => this.durableUsed(demand, window),
      );
    } catch (error) {
      // The control plane's own failure (seeding the window) says what it is.
      if (error instanceof SidecarError) throw error;
      throw new SidecarError('counter_unavailable', `quota Redis unavailable (${(error as Error).name})`);
    }
    return {
      limited: true,
      granted: answer.granted,
      replayed: answer.replayed,
      used: answer.used,
      limit: quota.limit,
      enforcement: quota.enforcement,
      window,
    };
  }

  /**
   * The control plane's durable count of the window, which a counter Redis does not hold starts
   * from (its first use, or a Redis that lost its data): a read there, nothing counted.
   */
  private async durableUsed(demand: QuotaDemand, window: QuotaWindow): Promise<number> {
    const { usage } = await this.controlPlane.consumeQuota({
      tenant: demand.tenant,
      meter: demand.meter,
      units: 0,
    });
    // A window of another period (the plan changed in between) is not this one's count.
    return usage !== undefined && Date.parse(usage.period_start) === window.start.getTime() ? usage.used : 0;
  }

  private async atControlPlane(demand: QuotaDemand): Promise<QuotaOutcome> {
    const answer = await this.controlPlane.consumeQuota({
      tenant: demand.tenant,
      meter: demand.meter,
      units: demand.units,
      ...(demand.idempotencyKey !== undefined && { idempotency_key: demand.idempotencyKey }),
    });
    const usage = answer.usage;
    if (!answer.limited || usage === undefined) return { limited: false };
    return {
      limited: true,
      granted: answer.granted,
      replayed: answer.replayed,
      used: usage.used,
      limit: usage.limit,
      enforcement: usage.enforcement === 'soft' ? 'soft' : 'hard',
      window: { start: new Date(usage.period_start), end: new Date(usage.period_end) },
    };
  }
}
