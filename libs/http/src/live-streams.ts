import { once } from 'node:events';
import type { ServerResponse } from 'node:http';
import { DomainError } from '@platform/domain';
import { reportLiveStreams, type LiveStreamLoad } from '@platform/telemetry';

/** What one process lets live streams hold (docs/operations.md, "Live streams"). */
export interface LiveStreamLimits {
  /** Live streams one caller may hold open at once in this process; one more is refused (429). */
  perCaller: number;
  /** Bytes a stream may have written and not yet taken by its reader before it waits for them. */
  bufferedBytes: number;
  /** How long a reader may leave `bufferedBytes` untaken before it is disconnected as too slow. */
  stallMs: number;
}

/** The defaults, in their one place; `LIVE_STREAMS_PER_CALLER` etc. override them (libs/config). */
export const DEFAULT_LIVE_STREAM_LIMITS: LiveStreamLimits = {
  perCaller: 16,
  bufferedBytes: 1024 * 1024,
  stallMs: 30_000,
};

/** One admitted stream: its socket (for what it buffers) and its release, idempotent. */
export interface LiveStreamSlot {
  readonly limits: LiveStreamLimits;
  release(): void;
}

interface OpenStream {
  route: string;
  caller: string;
  raw: ServerResponse;
}

/**
 * The live streams open in one server: counted per caller (the cap) and per route (the
 * metrics). A slot is taken before a stream starts and released when its loop or subscription
 * has ended, not when its socket closes, so a stream that outlives its client still counts.
 */
export class LiveStreams {
  private readonly open = new Set<OpenStream>();
  private readonly perCaller = new Map<string, number>();

  constructor(readonly limits: LiveStreamLimits) {}

  /** Takes a slot for `caller`'s stream on `route`, or refuses it: `too_many_requests`. */
  admit(route: string, caller: string, raw: ServerResponse): LiveStreamSlot {
    const held = this.perCaller.get(caller) ?? 0;
    if (held >= this.limits.perCaller)
      throw new DomainError(
        'too_many_requests',
        `at most ${this.limits.perCaller} live streams at once per caller; close one first`,
      );
    this.perCaller.set(caller, held + 1);
    const stream: OpenStream = { route, caller, raw };
    this.open.add(stream);
    let released = false;
    return {
      limits: this.limits,
      release: () => {
        if (released) return;
        released = true;
        this.open.delete(stream);
        const left = (this.perCaller.get(caller) ?? 1) - 1;
        if (left === 0) this.perCaller.delete(caller);
        else this.perCaller.set(caller, left);
      },
    };
  }

  /** Open streams and their untaken bytes, by route. */
  load(): LiveStreamLoad[] {
    const byRoute = new Map<string, LiveStreamLoad>();
    for (const { route, raw } of this.open) {
      const load = byRoute.get(route) ?? { route, open: 0, bufferedBytes: 0 };
      load.open += 1;
      load.bufferedBytes += raw.writableLength;
      byRoute.set(route, load);
    }
    return [...byRoute.values()];
  }
}

const byServer = new WeakMap<object, LiveStreams>();

/** Sets up the live streams of `server` (once, when the app is built) and reports them as metrics. */
export function trackLiveStreams(server: object, limits: LiveStreamLimits): LiveStreams {
  const streams = new LiveStreams(limits);
  byServer.set(server, streams);
  reportLiveStreams(() => streams.load());
  return streams;
}

/** The live streams of `server`: tracked by `createHttpApp`, or with the defaults for a bare one. */
export function liveStreamsOf(server: object): LiveStreams {
  return byServer.get(server) ?? trackLiveStreams(server, DEFAULT_LIVE_STREAM_LIMITS);
}

/**
 * Whether the reader has taken what was written (or most of it: the socket no longer needs to
 * drain) within `stallMs`; false as well when the client left meanwhile.
 */
export async function readerTook(raw: ServerResponse, stallMs: number, left: AbortSignal): Promise<boolean> {
  if (!raw.writableNeedDrain) return !left.aborted;
  try {
    await once(raw, 'drain', { signal: AbortSignal.any([left, AbortSignal.timeout(stallMs)]) });
    return true;
  } catch {
    return false;
  }
}
