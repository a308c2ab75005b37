import { setTimeout as sleep } from 'node:timers/promises';
import fastifySse, { type SSEReplyInterface } from '@fastify/sse';
import { Logger } from '@nestjs/common';
import { RouteConfig, type FastifyAdapter } from '@nestjs/platform-fastify';
import type { FastifyReply } from 'fastify';
import type { LiveStreamEnd } from '@platform/domain';
import { type LiveStreamLimits, liveStreamsOf, readerTook, trackLiveStreams } from './live-streams';

/** How often a live feed looks for new items once it has caught up. */
export const LIVE_FEED_POLL_MS = 250;
/** Items read per query while catching up. */
const LIVE_FEED_PAGE_SIZE = 500;

/**
 * Lets routes serve Server-Sent Events through `@fastify/sse`: a route marked `@LiveRoute()`
 * streams when the client asks for `text/event-stream` and answers as before otherwise. Nest
 * sets route `config`, so a hook lifts `config.sse` to the plugin's route option first.
 */
export async function registerLiveRoutes(adapter: FastifyAdapter, limits: LiveStreamLimits): Promise<void> {
  const fastify = adapter.getInstance();
  trackLiveStreams(fastify, limits);
  fastify.addHook('onRoute', (route) => {
    const sse = (route.config as { sse?: 'dual' } | undefined)?.sse;
    if (sse !== undefined) (route as { sse?: 'dual' }).sse = sse;
  });
  // Typed against the fastify copy @fastify/sse resolves, not the one Nest bundles: same API.
  await adapter.register(fastifySse as never, { heartbeatInterval: 15_000 } as never);
  // Open streams never end on their own: end them when the server closes, or it waits for them.
  const streams: ServerStreams = { closing: false, open: new Set() };
  serverStreams.set(fastify, streams);
  fastify.addHook('preClose', (done) => {
    streams.closing = true;
    for (const stream of streams.open) stream.close();
    done();
  });
}

interface Closable {
  close(): void;
}

interface ServerStreams {
  closing: boolean;
  open: Set<Closable>;
}

const serverStreams = new WeakMap<object, ServerStreams>();

/**
 * Ends `stream` when the server closes (a stream never ends on its own, and the server would
 * wait for it), or at once when it is closing already (a request on a kept-alive connection is
 * still served then). Returns the release to call once the stream has ended otherwise.
 */
export function closeWithServer(server: object, stream: Closable): () => void {
  const streams = serverStreams.get(server);
  if (streams?.closing === true) {
    stream.close();
    return () => undefined;
  }
  streams?.open.add(stream);
  return () => streams?.open.delete(stream);
}

/** The route also streams: `Accept: text/event-stream` gets the live feed (`followFeed`). */
export const LiveRoute = () => RouteConfig({ sse: 'dual' });

/** The SSE side of a live route's reply, when the client asked for the stream. */
export function liveReplyOf(reply: FastifyReply): SSEReplyInterface | undefined {
  return (reply as FastifyReply & { sse?: SSEReplyInterface }).sse;
}

export interface Feed<Item> {
  /** Items after the cursor, ascending, at most `limit`. */
  page(after: number, limit: number): Promise<Item[]>;
  /** The cursor of an item: its SSE `id`, what `Last-Event-ID` resumes after. */
  idOf(item: Item): number;
  event: string;
  toData(item: Item): unknown;
  /** The feed can have no new item (a job that ended): once caught up, the stream ends. */
  finished?(): Promise<boolean>;
}

/** The event a live stream ends with when its authority ends (docs/security.md, "Live streams"). */
export const LIVE_END_EVENT = 'end';

/**
 * `event: end` with `data: {"reason": ...}`, as it goes on the wire; with `last_event_id` when
 * the client should resume after it (`too_slow`).
 */
export function liveEndEvent(reason: LiveStreamEnd, lastEventId?: string): string {
  const data = lastEventId === undefined ? { reason } : { reason, last_event_id: lastEventId };
  return `event: ${LIVE_END_EVENT}\ndata: ${JSON.stringify(data)}\n\n`;
}

export interface FollowOptions {
  /**
   * The `exp` (Unix seconds) of the token the stream was opened with: the stream ends then,
   * with `event: end` and `token_expired`.
   */
  expiresAt?: number;
  /** Who holds the stream, for the per-caller cap: the token's client, the acting principal. */
  caller: string;
}

/** How a stream's loop ended: what it still writes, if anything. */
type LoopEnd = 'finished' | 'expired' | 'left' | 'too_slow';

/**
 * Streams `feed` from the cursor (`Last-Event-ID` when the client reconnects, else `after`)
 * until the client goes away, the feed is finished, or the token it was opened with expires:
 * every stored item first, then each new one as it is stored. It reads the database rather
 * than a local signal, so it sees what any replica wrote. One page is in flight at a time: the
 * next is read once the reader has taken the last; a reader that takes nothing for
 * `stallMs` is ended with `too_slow` and the id to resume after. Refused with
 * `too_many_requests` when `caller` already holds its share of streams.
 */
export async function followFeed<Item>(
  reply: FastifyReply,
  sse: SSEReplyInterface,
  feed: Feed<Item>,
  after: number,
  { expiresAt = Infinity, caller }: FollowOptions,
): Promise<void> {
  const slot = liveStreamsOf(reply.server).admit(
    reply.request.routeOptions.url ?? 'unmatched',
    caller,
    reply.raw,
  );
  const raw = reply.raw;
  // Ended when the client leaves, even while a query or a write is awaited, and at server close.
  const left = new AbortController();
  const leave = () => left.abort();
  raw.once('close', leave);
  if (raw.destroyed) leave();
  const releaseServer = closeWithServer(reply.server, { close: leave });
  sse.keepAlive();
  sse.sendHeaders();
  const resumed = Number(sse.lastEventId);
  let cursor = sse.lastEventId !== null && Number.isSafeInteger(resumed) && resumed >= 0 ? resumed : after;
  // Whether the reader took what was written within stallMs: if not, how the stream ends.
  const readerBehind = async (): Promise<LoopEnd | undefined> => {
    if (await readerTook(raw, slot.limits.stallMs, left.signal)) return undefined;
    return left.signal.aborted ? 'left' : 'too_slow';
  };
  const loop = async (): Promise<LoopEnd> => {
    while (!left.signal.aborted) {
      if (Date.now() >= expiresAt * 1000) return 'expired';
      // Asked before each read: what was stored before it finished is in the read that follows.
      const finished = (await feed.finished?.()) ?? false;
      const items = await feed.page(cursor, LIVE_FEED_PAGE_SIZE);
      for (const item of items) {
        if (left.signal.aborted) return 'left';
        cursor = feed.idOf(item);
        raw.write(eventText(String(cursor), feed.event, feed.toData(item)));
        const behind = raw.writableLength < slot.limits.bufferedBytes ? undefined : await readerBehind();
        if (behind !== undefined) return behind;
      }
      // One page in flight: the next is read once the reader has taken this one.
      const behind = await readerBehind();
      if (behind !== undefined) return behind;
      if (items.length < LIVE_FEED_PAGE_SIZE) {
        if (finished) return 'finished';
        await sleep(LIVE_FEED_POLL_MS, undefined, { signal: left.signal }).catch(() => undefined);
      }
    }
    return 'left';
  };
  let end: LoopEnd;
  try {
    end = await loop();
  } catch (error) {
    // The feed could not be read: the stream ends, and the client resumes from its last event.
    new Logger('LiveFeed').warn(`live feed read failed: ${(error as Error).name}`);
    end = 'finished';
  } finally {
    raw.off('close', leave);
    releaseServer();
    slot.release();
  }
  if (end === 'expired') raw.write(liveEndEvent('token_expired'));
  if (end === 'too_slow') {
    raw.write(liveEndEvent('too_slow', String(cursor)));
    // The socket outlives the response (kept alive): cut it if its reader has still taken nothing.
    const socket = raw.socket;
    setTimeout(
      () => socket !== null && socket.writableLength > 0 && socket.destroy(),
      SLOW_READER_GRACE_MS,
    ).unref();
  }
  sse.close();
}

/** How long a reader ended as too slow has to take its last events before its socket is cut. */
const SLOW_READER_GRACE_MS = 1_000;

/** One event as it goes on the wire (`@fastify/sse`'s format; the data is one line of JSON). */
function eventText(id: string, event: string, data: unknown): string {
  return `id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}
