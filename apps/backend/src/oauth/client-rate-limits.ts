import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { PlatformConfig } from '@platform/config';
import { readClientCredentials } from '@platform/domain';
import type { PlatformRequest } from '@platform/http';
import {
  rateLimitHeaders,
  RateLimitStore,
  type RateLimit,
  type RateLimitDecision,
} from '@platform/ratelimit';
import { metrics } from '@platform/telemetry';
import type { FastifyReply } from 'fastify';
import { PLATFORM_CONFIG } from '../config';

/** client_ids are at most 64 characters (the registry's rule); a key is never longer. */
const MAX_CLIENT_ID = 64;

/**
 * The backend's limits on its endpoints that check client secrets (token, introspection,
 * revocation, the login family's token path), counted in memory or, shared by every backend, in
 * Redis (docs/rate-limits.md):
 * - requests per client and per source address: a flood stop far above legitimate load;
 * - failed client authentications per client and address, and per address: a secret cannot be
 *   guessed, and a source that keeps failing is refused (429) before its guesses reach argon2.
 *   Counting per client *and* address keeps an attacker elsewhere from locking a client out.
 * The address is `request.ip`: the peer's, or the client's behind a proxy `TRUST_PROXY` names.
 */
@Injectable()
export class ClientRateLimits implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('RateLimits');
  private readonly store: RateLimitStore;
  private readonly perClient: RateLimit | undefined;
  private readonly perAddress: RateLimit | undefined;
  private readonly failuresPerClient: RateLimit | undefined;
  private readonly failuresPerAddress: RateLimit | undefined;
  /** Requests of a client and address with failures on record: a success clears them. */
  private readonly failing = new WeakMap<PlatformRequest, string>();

  constructor(@Inject(PLATFORM_CONFIG) config: PlatformConfig) {
    const limits = config.rateLimits;
    this.store = new RateLimitStore({
      redisUrl: limits.redisUrl,
      keyPrefix: 'platform:oauth',
      onStoreError: () => metrics.rateLimitStoreErrors.inc(),
      warn: (message) => this.logger.warn(message),
    });
    const window = limits.failedAuthWindowSeconds;
    const policy = (name: string, quota: number, windowSeconds: number, blockSeconds?: number) =>
      quota > 0 ? this.store.limit({ name, quota, windowSeconds, blockSeconds }) : undefined;
    this.perClient = policy('client', limits.clientPerMinute, 60);
    this.perAddress = policy('address', limits.addressPerMinute, 60);
    this.failuresPerClient = policy('failed-auth-client', limits.failedAuthPerClient, window, window);
    this.failuresPerAddress = policy('failed-auth-address', limits.failedAuthPerAddress, window, window);
  }

  /** Waits (briefly) for Redis, so the first requests count where every backend does. */
  async onModuleInit(): Promise<void> {
    if (this.store.shared && !(await this.store.ready())) {
      this.logger.warn('Redis for rate limits is not reachable yet: counting in memory until it is');
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.store.close();
  }

  /**
   * Counts the request (for `presentedClientId` when the route already read the credentials,
   * null when they name no client); when a limit refuses it (its own count, or failures on
   * record for its client and address), answers 429 itself and resolves false.
   */
  async admit(
    request: PlatformRequest,
    reply: FastifyReply,
    presentedClientId?: string | null,
  ): Promise<boolean> {
    // The route may have read the credentials already (introspection, a JSON body): not parsed twice.
    const client = clientOf(request, presentedClientId);
    const address = request.ip;
    const source = `${client} ${address}`;
    // One round trip: the failure checks and the request counts side by side.
    const [failures, addressFailures, requests, addressRequests] = await Promise.all([
      client === undefined ? undefined : this.failuresPerClient?.peek(source),
      this.failuresPerAddress?.peek(address),
      client === undefined ? undefined : this.perClient?.consume(client),
      this.perAddress?.consume(address),
    ]);
    const refusal = refusalOf([failures, addressFailures, requests, addressRequests]);
    if (refusal === undefined) {
      if (failures !== undefined && failures.remaining < failures.policy.quota)
        this.failing.set(request, source);
      return true;
    }
    metrics.rateLimitDecisions.labels(refusal.policy.name).inc();
    await reply
      .status(429)
      .headers({
        ...rateLimitHeaders(refusal),
        'cache-control': 'no-store',
        'content-type': 'application/json',
      })
      .send(
        JSON.stringify({
          error: 'temporarily_unavailable',
          error_description: `too many requests (${refusal.policy.name}): retry after ${refusal.resetSeconds} s`,
        }),
      );
    return false;
  }

  /**
   * Once answered (`status`): a failed client authentication counts against the source
   * (`presentedClientId` as given to `admit`).
   */
  async settle(request: PlatformRequest, status: number, presentedClientId?: string | null): Promise<void> {
    // A client that authenticates starts again from no failures, as after a correct password.
    const failing = this.failing.get(request);
    if (status === 200 && failing !== undefined) await this.failuresPerClient?.reset(failing);
    if (status !== 401) return;
    const client = clientOf(request, presentedClientId);
    const address = request.ip;
    await Promise.all([
      client === undefined ? undefined : this.failuresPerClient?.consume(`${client} ${address}`),
      this.failuresPerAddress?.consume(address),
    ]);
  }
}

/** The client a request names: as the route read it, else from Basic or the form `client_id`. */
function clientOf(
  request: PlatformRequest,
  presentedClientId: string | null | undefined,
): string | undefined {
  if (presentedClientId === null) return undefined;
  return presentedClientId === undefined ? clientIdOf(request) : limitKeyOf(presentedClientId);
}

/**
 * The client_id as the control plane will read it (the domain's own parser). Credentials it
 * would refuse as malformed, or longer than any client_id, name no client: the address still
 * counts.
 */
function clientIdOf(request: PlatformRequest): string | undefined {
  const form = Object.fromEntries(new URLSearchParams(request.rawBody ?? ''));
  try {
    return limitKeyOf(readClientCredentials(form, request.headers.authorization).clientId);
  } catch {
    return undefined;
  }
}

/** A client_id longer than any the registry allows names no client. */
function limitKeyOf(clientId: string): string | undefined {
  return clientId.length <= MAX_CLIENT_ID ? clientId : undefined;
}

function refusalOf(decisions: Array<RateLimitDecision | undefined>): RateLimitDecision | undefined {
  return decisions.find((decision) => decision !== undefined && !decision.allowed);
}
