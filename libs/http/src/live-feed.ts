import { setTimeout as sleep } from 'node:timers/promises';
import fastifySse, { type SSEReplyInterface } from '@fastify/sse';
import { RouteConfig, type FastifyAdapter } from '@nestjs/platform-fastify';
import type { FastifyReply } from 'fastify';
import type { LiveStreamEnd } from '@platform/domain';

/** How often a live feed looks for new items once it has caught up. */
export const LIVE_FEED_POLL_MS = 250;
/** Items read per query while catching up. */
const LIVE_FEED_PAGE_SIZE = 500;

/**
 * Lets routes serve Server-Sent Events through `@fastify/sse`: a route marked `@LiveRoute()`
 * streams when the client asks for `text/event-stream` and answers as before otherwise. Nest
 * sets route `config`, so a hook lifts `config.sse` to the plugin's route option first.
 */
export async function registerLiveRoutes(adapter: FastifyAdapter): Promise<void> {
  const fastify = adapter.getInstance();
  fastify.addHook('onRoute', (route) => {
    const sse = (route.config as { sse?: 'dual' } | undefined)?.sse;
    if (sse !== undefined) (route as { sse?: 'dual' }).sse = sse;
  });
  // Typed against the fastify copy @fastify/sse resolves, not the one Nest bundles: same API.
  await adapter.register(fastifySse as never, { heartbeatInterval: 15_000 } as never);
  // Open streams never end on their own: end them when the server closes, or it waits for them.
  const open = new Set<Closable>();
  openStreams.set(fastify, open);
  fastify.addHook('preClose', (done) => {
    for (const stream of open) stream.close();
    done();
  });
}

interface Closable {
  close(): void;
}

const openStreams = new WeakMap<object, Set<Closable>>();

/**
 * Ends `stream` when the server closes (a stream never ends on its own, and the server would
 * wait for it). Returns the release to call once the stream has ended otherwise.
 */
export function closeWithServer(server: object, stream: Closable): () => void {
  const open = openStreams.get(server);
  open?.add(stream);
  return () => open?.delete(stream);
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

/** `event: end` with `data: {"reason": ...}`, as it goes on the wire. */
export function liveEndEvent(reason: LiveStreamEnd): string {
  return `event: ${LIVE_END_EVENT}\ndata: ${JSON.stringify({ reason })}\n\n`;
}

export interface FollowOptions {
  /**
   * The `exp` (Unix seconds) of the token the stream was opened with: the stream ends then,
   * with `event: end` and `token_expired`.
   */
  expiresAt?: number;
}

/**
 * Streams `feed` from the cursor (`Last-Event-ID` when the client reconnects, else `after`)
 * until the client goes away, the feed is finished, or the token it was opened with expires:
 * every stored item first, then each new one as it is stored. It reads the database rather
 * than a local signal, so it sees what any replica wrote.
 */
export async function followFeed<Item>(
  reply: FastifyReply,
  sse: SSEReplyInterface,
  feed: Feed<Item>,
  after: number,
  { expiresAt = Infinity }: FollowOptions = {},
): Promise<void> {
  sse.keepAlive();
  const release = closeWithServer(reply.server, sse);
  const resumed = Number(sse.lastEventId);
  let cursor = sse.lastEventId !== null && Number.isSafeInteger(resumed) && resumed >= 0 ? resumed : after;
  let closed = false;
  sse.onClose(() => (closed = true));
  let feedEnded = false;
  while (!closed && sse.isConnected && Date.now() < expiresAt * 1000) {
    // Asked before each read: what was stored before it finished is in the read that follows.
    const finished = (await feed.finished?.()) ?? false;
    const items = await feed.page(cursor, LIVE_FEED_PAGE_SIZE);
    for (const item of items) {
      cursor = feed.idOf(item);
      await sse.send({ id: String(cursor), event: feed.event, data: feed.toData(item) });
    }
    if (items.length < LIVE_FEED_PAGE_SIZE) {
      if (finished) {
        feedEnded = true;
        break;
      }
      await sleep(LIVE_FEED_POLL_MS);
    }
  }
  release();
  if (closed || !sse.isConnected) return;
  // Not the feed's end: the token's.
  if (!feedEnded)
    await sse.send({ event: LIVE_END_EVENT, data: { reason: 'token_expired' satisfies LiveStreamEnd } });
  sse.close();
}
