import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { type RateLimit, type RateLimitPolicy, RateLimitStore } from '@platform/ratelimit';
import { metrics } from '@platform/telemetry';
import { SIDECAR_CONFIG, type SidecarConfig } from '../config/sidecar-config';

/**
 * The sidecar's one counter store (libs/ratelimit): in memory, or in Redis when
 * `RATE_LIMIT_REDIS_URL` is set so that every sidecar shares the counts. While Redis fails, counts
 * go on in this process's memory (fail open to a per-process limit, never to no limit), with a
 * warning and `platform_rate_limit_store_errors_total`.
 */
@Injectable()
export class SidecarCounters implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('RateLimits');
  private readonly store: RateLimitStore;

  constructor(@Inject(SIDECAR_CONFIG) config: SidecarConfig) {
    this.store = new RateLimitStore({
      ...(config.rateLimitRedisUrl !== undefined && { redisUrl: config.rateLimitRedisUrl }),
      keyPrefix: 'platform:rls',
      onStoreError: () => metrics.rateLimitStoreErrors.inc(),
      warn: (message) => this.logger.warn(message),
    });
  }

  /** Waits (briefly) for Redis, so the first calls count where every sidecar does. */
  async onModuleInit(): Promise<void> {
    if (this.store.shared && !(await this.store.ready())) {
      this.logger.warn('Redis for rate limits is not reachable yet: counting in memory until it is');
    }
  }

  limit(policy: RateLimitPolicy): RateLimit {
    return this.store.limit(policy);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.store.close();
  }
}
