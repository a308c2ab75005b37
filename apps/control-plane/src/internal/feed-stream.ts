import { closeWithServer, type PlatformRequest } from '@platform/http';
import type { FastifyReply } from 'fastify';
import type { SeqFeed } from '../platform/seq-feed';

const HEARTBEAT_MS = 15_000;

/**
 * Answers a feed as Server-Sent Events: one event per entry, `id` = its seq, so a reconnect
 * resumes with `after`; a `: ping` comment every 15 s keeps proxies and the sidecar's idle timer
 * from closing a quiet stream.
 */
export async function streamFeed<Entry extends { seq: number }>(
  feed: SeqFeed<Entry>,
  after: number,
  request: PlatformRequest,
  reply: FastifyReply,
): Promise<void> {
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-store',
    connection: 'keep-alive',
    'x-request-id': request.id,
  });
  raw.write(': connected\n\n');
  const unsubscribe = await feed.subscribe(after, (entry) =>
    raw.write(`id: ${entry.seq}\ndata: ${JSON.stringify(entry)}\n\n`),
  );
  const heartbeat = setInterval(() => raw.write(': ping\n\n'), HEARTBEAT_MS);
  // The stream never ends on its own: the server's close ends it (the sidecar reconnects,
  // to another replica), or the server would wait for it.
  const release = closeWithServer(request.server, { close: () => raw.end() });
  raw.on('close', () => {
    clearInterval(heartbeat);
    unsubscribe();
    release();
  });
}
