import { createHash } from 'node:crypto';
import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { PlatformConfig } from '@platform/config';
import { RateLimitStore, type RateLimit, type RateLimitDecision } from '@platform/ratelimit';
import { metrics } from '@platform/telemetry';
import { PLATFORM_CONFIG } from '../config';

/** User codes one browser session may submit per minute (RFC 8628 section 5.1: guessing is limited). */
export const USER_CODES_PER_SESSION = 5;
/** User codes one client address may submit per minute, whatever sessions it holds. */
export const USER_CODES_PER_ADDRESS = 20;
const WINDOW_SECONDS = 60;

/**
 * The limit on entering user codes at the verification page (docs/tokens.md, "Device flow"):
 * every code submitted counts, per session and per client address (`request.ip`), in memory or
 * in the Redis every backend shares (docs/rate-limits.md). A user code has about 34.5 bits, and
 * lives 10 minutes: at these rates a guess succeeds with a chance of about 1 in 10^8 per code.
 * The consent form that follows carries a token binding the code to the session, so the code is
 * never guessed there.
 */
@Injectable()
export class UserCodeGuesses implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('RateLimits');
  private readonly store: RateLimitStore;
  private readonly perSession: RateLimit;
  private readonly perAddress: RateLimit;

  constructor(@Inject(PLATFORM_CONFIG) config: PlatformConfig) {
    this.store = new RateLimitStore({
      redisUrl: config.rateLimits.redisUrl,
      keyPrefix: 'platform:device',
      onStoreError: () => metrics.rateLimitStoreErrors.inc(),
      warn: (message) => this.logger.warn(message),
    });
    this.perSession = this.store.limit({
      name: 'user-code-session',
      quota: USER_CODES_PER_SESSION,
      windowSeconds: WINDOW_SECONDS,
    });
    this.perAddress = this.store.limit({
      name: 'user-code-address',
      quota: USER_CODES_PER_ADDRESS,
      windowSeconds: WINDOW_SECONDS,
    });
  }

  async onModuleInit(): Promise<void> {
    if (this.store.shared) await this.store.ready();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.store.close();
  }

  /**
   * Counts one code submitted by `session` from `address`; the refusal when either is over its
   * quota (nothing may be looked up then), else undefined.
   */
  async admit(session: string, address: string): Promise<RateLimitDecision | undefined> {
    // The session value is a credential: its counter is keyed by a hash of it.
    const sessionKey = createHash('sha256').update(session).digest('base64url');
    const decisions = await Promise.all([
      this.perSession.consume(sessionKey),
      this.perAddress.consume(address),
    ]);
    const refusal = decisions.find((decision) => !decision.allowed);
    if (refusal) metrics.rateLimitDecisions.labels(refusal.policy.name).inc();
    return refusal;
  }
}
