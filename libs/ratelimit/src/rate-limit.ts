import { Redis } from 'ioredis';
import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import { redisReady } from './redis-ready';

/** A quota of `quota` units per `windowSeconds`, as the IETF `RateLimit-Policy` field names it. */
export interface RateLimitPolicy {
  /** The policy's name in the `RateLimit-Policy` and `RateLimit` fields. */
  name: string;
  quota: number;
  windowSeconds: number;
  /** Once the quota is used up, refuse for this long instead of until the window ends. */
  blockSeconds?: number;
}

export interface RateLimitDecision {
  policy: RateLimitPolicy;
  allowed: boolean;
  /** Units left in the window (0 when refused). */
  remaining: number;
  /** Seconds until the window (or the block) ends: the `Retry-After` of a refusal. */
  resetSeconds: number;
}

export interface RateLimitStoreOptions {
  /** `redis://...`: counters shared by every process that uses the same Redis. Else in memory. */
  redisUrl?: string;
  /** Namespaces the keys in Redis. */
  keyPrefix: string;
  /** Told about each Redis failure (the count falls back to this process's memory meanwhile). */
  onStoreError?: (error: Error) => void;
  /** Where the failures are said, at most once per STORE_ERROR_LOG_INTERVAL_MS. */
  warn?: (message: string) => void;
}

/** A Redis failure is logged at most this often (each one still reaches `onStoreError`). */
const STORE_ERROR_LOG_INTERVAL_MS = 10_000;

/**
 * The counters of one process: in memory, or in Redis so that every replica shares them. When
 * Redis fails, each limit counts in this process's memory until Redis answers again (fail open
 * to a per-process limit, never to no limit): a Redis outage neither refuses everyone nor lifts
 * the protection.
 */
export class RateLimitStore {
  private readonly redis: Redis | undefined;
  /** Redis failures seen, for logs and metrics. */
  storeErrors = 0;
  private lastWarnedAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly options: RateLimitStoreOptions) {
    if (options.redisUrl) {
      // Fail fast while disconnected (no offline queue): the memory fallback answers instead.
      // Commands of one tick go out as one pipeline: a request's checks cost one round trip.
      this.redis = new Redis(options.redisUrl, {
        enableOfflineQueue: false,
        maxRetriesPerRequest: 1,
        enableAutoPipelining: true,
      });
      this.redis.on('error', (error: Error) => this.failed(error));
    }
  }

  get shared(): boolean {
    return this.redis !== undefined;
  }

  /**
   * Waits until Redis is connected, at most `timeoutMs` (until then counts fall back to memory).
   * Answers whether it is.
   */
  async ready(timeoutMs = 2_000): Promise<boolean> {
    return this.redis ? redisReady(this.redis, timeoutMs) : true;
  }

  limit(policy: RateLimitPolicy): RateLimit {
    const settings = {
      keyPrefix: `${this.options.keyPrefix}:${policy.name}`,
      points: policy.quota,
      duration: policy.windowSeconds,
      blockDuration: policy.blockSeconds ?? 0,
    };
    const memory = new RateLimiterMemory(settings);
    const redis = this.redis ? new RateLimiterRedis({ ...settings, storeClient: this.redis }) : undefined;
    return new RateLimit(policy, memory, redis, (error) => this.failed(error));
  }

  async close(): Promise<void> {
    if (this.redis) this.redis.disconnect();
  }

  private failed(error: Error): void {
    this.storeErrors += 1;
    this.options.onStoreError?.(error);
    const now = Date.now();
    if (!this.options.warn || now - this.lastWarnedAt < STORE_ERROR_LOG_INTERVAL_MS) return;
    this.lastWarnedAt = now;
    this.options.warn(
      `rate limit store (Redis) failed, counting in this process's memory meanwhile (${this.storeErrors} failures so far): ${error.message}`,
    );
  }
}

/** One policy's counters, keyed by whatever it limits (a client, an address). */
export class RateLimit {
  constructor(
    readonly policy: RateLimitPolicy,
    private readonly memory: RateLimiterAbstract,
    private readonly redis: RateLimiterAbstract | undefined,
    private readonly failed: (error: Error) => void,
  ) {}

  /** Counts `units` against the key and says whether they fit. */
  async consume(key: string, units = 1): Promise<RateLimitDecision> {
    try {
      return this.decision(true, await this.store((limiter) => limiter.consume(key, units)));
    } catch (refusal) {
      if (refusal instanceof RateLimiterRes) return this.decision(false, refusal);
      throw refusal;
    }
  }

  /** Whether the key still has quota, without counting anything. */
  async peek(key: string): Promise<RateLimitDecision> {
    const state = await this.store((limiter) => limiter.get(key));
    if (state === null)
      return { policy: this.policy, allowed: true, remaining: this.policy.quota, resetSeconds: 0 };
    return this.decision(state.consumedPoints < this.policy.quota, state);
  }

  /** Forgets the key's count (and block). */
  async reset(key: string): Promise<void> {
    await this.store((limiter) => limiter.delete(key));
  }

  /** Redis when there is one and it answers; otherwise this process's memory. */
  private async store<T>(operation: (limiter: RateLimiterAbstract) => Promise<T>): Promise<T> {
    if (!this.redis) return operation(this.memory);
    try {
      return await operation(this.redis);
    } catch (error) {
      if (error instanceof RateLimiterRes || !(error instanceof Error)) throw error;
      this.failed(error);
      return operation(this.memory);
    }
  }

  private decision(allowed: boolean, state: RateLimiterRes): RateLimitDecision {
    return {
      policy: this.policy,
      allowed,
      remaining: allowed ? Math.max(0, state.remainingPoints) : 0,
      resetSeconds: Math.max(1, Math.ceil(state.msBeforeNext / 1000)),
    };
  }
}
