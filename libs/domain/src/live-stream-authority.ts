import { type Clock, systemClock } from './clock';
import type { DenyList } from './revocation/deny-list';
import { type RevocableClaims, revocationDenies } from './revocation/revocation-entry';
import type { RevocationKind } from './revocation/revocation';

/**
 * Why a live stream ended before its feed did: the `reason` of its SSE `end` event, the detail
 * of its gRPC status. `revocations_unavailable`: the process stopped following the deny-list,
 * so it can no longer tell whether the token still holds.
 */
export type LiveStreamEnd =
  | 'token_expired'
  | 'token_revoked'
  | 'grant_revoked'
  | 'app_deleted'
  | 'user_deprovisioned'
  | 'revocations_unavailable'
  /** Its reader fell too far behind: resume with the last event id (docs/operations.md). */
  | 'too_slow';

/** The token a stream was opened with, as far as its authority goes. */
export interface StreamClaims extends RevocableClaims {
  /** Unix seconds. */
  exp: number;
}

const END_BY_KIND: Record<Exclude<RevocationKind, 'secret' | 'signing_key'>, LiveStreamEnd> = {
  jti: 'token_revoked',
  grant: 'grant_revoked',
  client: 'app_deleted',
  subject: 'user_deprovisioned',
};

/** setTimeout's longest delay; a later expiry is waited for in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

interface HeldStream {
  claims: StreamClaims;
  end: (reason: LiveStreamEnd) => void;
  timer?: ReturnType<typeof setTimeout>;
}

/**
 * The one rule for streams that outlive their request: a stream runs on the authority of the
 * token that opened it, so it ends when that token expires (`exp`, as every token check judges
 * it: expired once `exp <= now`) and as soon as a deny-list entry denies the token
 * (`revocationDenies`, the rule every token check applies: its jti, its grant, its app deleted,
 * its user deprovisioned). Each process that serves streams holds one: the backend for the
 * Server-Sent Events it relays, fed by its sidecar's invalidation stream; the sidecar for its
 * gRPC server streams, following its own deny-list (docs/security.md, "Live streams").
 */
export class LiveStreamAuthority {
  private readonly held = new Set<HeldStream>();
  private denyList: DenyList | undefined;

  constructor(private readonly clock: Clock = systemClock) {}

  /** Streams running now. */
  get size(): number {
    return this.held.size;
  }

  /**
   * Runs a stream on `claims` until `end` is called with the reason it must stop (once, and
   * never after the release this answers, which the stream calls when it ends otherwise).
   */
  hold(claims: StreamClaims, end: (reason: LiveStreamEnd) => void): () => void {
    const stream: HeldStream = { claims, end };
    this.held.add(stream);
    const denied = this.denyList?.revocationOf(claims);
    if (denied !== undefined) this.finish(stream, endByKind(denied));
    else this.expireOnTime(stream);
    return () => this.release(stream);
  }

  /** A deny-list entry now applies: every stream it denies ends. */
  revoked(entry: { kind: string; value: string; created_at: number }): void {
    for (const stream of this.held) {
      if (revocationDenies(entry, stream.claims)) this.finish(stream, endByKind(entry.kind));
    }
  }

  /** The whole deny-list as it is now (a follower that (re)joined it): every stream it denies ends. */
  judge(entries: Iterable<{ kind: string; value: string; created_at: number }>): void {
    for (const entry of entries) this.revoked(entry);
  }

  /**
   * Follows `denyList`: every entry it gains ends the streams it denies, and a stream it
   * already denies ends as soon as it is held. Answers the unfollow.
   */
  follow(denyList: DenyList): () => void {
    this.denyList = denyList;
    const unwatch = denyList.watch(({ entry }) => entry !== undefined && this.revoked(entry));
    return () => {
      unwatch();
      this.denyList = undefined;
    };
  }

  /** Ends every stream, for `reason`. */
  endAll(reason: LiveStreamEnd): void {
    for (const stream of this.held) this.finish(stream, reason);
  }

  private expireOnTime(stream: HeldStream): void {
    const left = stream.claims.exp * 1000 - this.clock.now().getTime();
    if (left <= 0) return this.finish(stream, 'token_expired');
    stream.timer = setTimeout(() => this.expireOnTime(stream), Math.min(left, MAX_TIMER_MS));
    // A stream keeps its own connection open; its expiry timer need not keep the process alive.
    stream.timer.unref?.();
  }

  private finish(stream: HeldStream, reason: LiveStreamEnd): void {
    if (!this.release(stream)) return;
    stream.end(reason);
  }

  private release(stream: HeldStream): boolean {
    clearTimeout(stream.timer);
    return this.held.delete(stream);
  }
}

/** A kind this code does not know denies (as `revocationDenies` says): a revoked token, then. */
function endByKind(kind: string): LiveStreamEnd {
  return END_BY_KIND[kind as keyof typeof END_BY_KIND] ?? 'token_revoked';
}
