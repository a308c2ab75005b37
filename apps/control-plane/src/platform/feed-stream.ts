import { closeWithServer, liveStreamsOf, readerTook, type PlatformRequest } from '@platform/http';
import type { FastifyReply } from 'fastify';
import type { SeqFeed } from './seq-feed';

const HEARTBEAT_MS = 15_000;

/**
 * Answers a feed as Server-Sent Events: one event per entry, `id` = its seq, so a reconnect
 * resumes with `after`; a `: ping` comment every 15 s keeps proxies and the sidecar's idle timer
 * from closing a quiet stream. Every sidecar calls with the internal token, so the per-caller
 * cap counts by address. A reader that lets more than the buffer limit pile up is cut, not
 * buffered for: it reconnects after the last seq it read.
 */
export async function streamFeed<Entry extends { seq: number }>(
  feed: SeqFeed<Entry>,
  after: number,
  request: PlatformRequest,
  reply: FastifyReply,
): Promise<void> {
  const route = request.routeOptions.url ?? 'unmatched';
  const slot = liveStreamsOf(request.server).admit(route, `internal:${request.ip}`, reply.raw);
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-store',
    connection: 'keep-alive',
    'x-request-id': request.id,
  });
  raw.write(': connected\n\n');
  // Everything the stream holds is let go once, when its socket closes, whatever it was doing.
  const left = new AbortController();
  let unsubscribe: (() => void) | undefined;
  const heartbeat = setInterval(() => raw.write(': ping\n\n'), HEARTBEAT_MS);
  // The stream never ends on its own: the server's close ends it (the sidecar reconnects,
  // to another replica), or the server would wait for it.
  const releaseServer = closeWithServer(request.server, { close: () => raw.end() });
  const end = () => {
    if (left.signal.aborted) return;
    left.abort();
    clearInterval(heartbeat);
    unsubscribe?.();
    releaseServer();
    slot.release();
  };
  raw.once('close', end);
  if (raw.destroyed) end();
  let following = false;
  const send = (entry: Entry) => {
    // Ended by the server's close, perhaps before the catch-up was read: nothing more to write.
    if (left.signal.aborted || raw.writableEnded) return;
    raw.write(`id: ${entry.seq}\ndata: ${JSON.stringify(entry)}\n\n`);
    // Catching up, each page waits for the reader (`taken`); following, nothing waits.
    if (following && raw.writableLength > slot.limits.bufferedBytes) raw.destroy();
  };
  const taken = async () => {
    if (!(await readerTook(raw, slot.limits.stallMs, left.signal))) raw.destroy();
  };
  try {
    unsubscribe = await feed.subscribe(after, send, { signal: left.signal, taken });
  } catch {
    // The catch-up could not be read: the sidecar reconnects and asks again.
    raw.destroy();
    return;
  }
  if (left.signal.aborted) unsubscribe();
  following = true;
}
