import { type Clock, systemClock } from './clock';
import { SingleFlight } from './single-flight';
import type { TokenResponse } from './wire';

/** The spec's client guidance: refresh at 80% of `expires_in`. */
export const REFRESH_AT_FRACTION = 0.8;

/**
 * When a token obtained at `obtainedAt` (ms) with `expiresIn` (s) should be replaced: at 80% of
 * its lifetime. A token without a usable `expires_in` is kept until the platform refuses it.
 */
export function refreshDeadline(obtainedAt: number, expiresIn: number | undefined): number {
  if (typeof expiresIn !== 'number' || !Number.isFinite(expiresIn) || expiresIn <= 0) return Infinity;
  return obtainedAt + expiresIn * 1000 * REFRESH_AT_FRACTION;
}

export interface CachedToken {
  token: TokenResponse;
  /** Clock time (ms) when the request for it was sent: its lifetime counts from there, never later. */
  obtainedAt: number;
  refreshAt: number;
}

/**
 * Caches the token `obtain` fetches, and fetches again once 80% of its `expires_in` has passed
 * (by `clock`). One fetch at a time: concurrent callers share the one in flight. A failed
 * fetch is not cached; the next call tries again.
 */
export class TokenCache {
  private cached: CachedToken | undefined;
  private readonly flight = new SingleFlight<CachedToken>();

  constructor(
    private readonly obtain: () => Promise<TokenResponse>,
    private readonly clock: Clock = systemClock,
  ) {}

  /** The cached entry, if any, fresh or not. */
  get current(): CachedToken | undefined {
    return this.cached;
  }

  async get(): Promise<CachedToken> {
    const cached = this.cached;
    if (cached && this.clock.now().getTime() < cached.refreshAt) return cached;
    return this.flight.run(() => this.fetch());
  }

  /** Forgets the cached token: the next `get` fetches. A fetch already in flight still completes. */
  invalidate(): void {
    this.cached = undefined;
  }

  /**
   * A new token unless `rejected` is already replaced: the first caller reporting a rejected
   * token triggers one fetch, later and concurrent callers with the same token share its result.
   */
  async renew(rejected: string): Promise<CachedToken> {
    if (this.flight.busy) return this.flight.run(() => this.fetch());
    const cached = this.cached;
    if (cached && cached.token.access_token !== rejected && this.clock.now().getTime() < cached.refreshAt)
      return cached;
    if (cached?.token.access_token === rejected) this.cached = undefined;
    return this.get();
  }

  private async fetch(): Promise<CachedToken> {
    const obtainedAt = this.clock.now().getTime();
    const token = await this.obtain();
    const entry = { token, obtainedAt, refreshAt: refreshDeadline(obtainedAt, token.expires_in) };
    this.cached = entry;
    return entry;
  }
}
