import { connect, type Socket } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Controller, Get, Module, Req, Res, type LoggerService } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import {
  createHttpApp,
  followFeed,
  liveReplyOf,
  LiveRoute,
  liveStreamsOf,
  type LiveStreamLimits,
  type PlatformRequest,
} from '@platform/http';
import { scrape } from '@platform/telemetry';
import type { FastifyReply } from 'fastify';
import { SeqFeed } from './seq-feed';
import { streamFeed } from './feed-stream';

/** A large event (16 KiB), so a reader that never reads fills the kernel's buffers quickly. */
const BODY = 'x'.repeat(16 * 1024);

interface Entry {
  seq: number;
  body: string;
}

/** The store both kinds of stream read: a slow query (catch-up takes a while), one that fails. */
const store = {
  entries: [] as Entry[],
  queryMs: 0,
  failing: false,
  pages: 0,
  append(): void {
    this.entries.push({ seq: this.entries.length + 1, body: BODY });
  },
  async after(cursor: number, limit: number): Promise<Entry[]> {
    this.pages += 1;
    await new Promise((resolve) => setTimeout(resolve, this.queryMs));
    if (this.failing) throw new Error('the database went away');
    return this.entries.slice(cursor, cursor + limit);
  },
};

class TestFeed extends SeqFeed<Entry> {
  protected readAfter(after: number, limit: number): Promise<Entry[]> {
    return store.after(after, limit);
  }
}

@Controller()
class StreamsController {
  constructor(private readonly feed: TestFeed) {}

  @Get('events')
  @LiveRoute()
  async events(@Res() reply: FastifyReply): Promise<void> {
    const live = liveReplyOf(reply);
    if (live === undefined) return void reply.send([]);
    const feed = {
      page: store.after.bind(store),
      idOf: (e: Entry) => e.seq,
      event: 'entry',
      toData: (e: Entry) => e,
    };
    return followFeed(reply, live, feed, 0, { caller: 'admin' });
  }

  @Get('feed')
  async stream(@Req() request: PlatformRequest, @Res() reply: FastifyReply): Promise<void> {
    await streamFeed(this.feed, 0, request, reply);
  }
}

@Module({ controllers: [StreamsController], providers: [TestFeed] })
class StreamsModule {}

const quiet: LoggerService = { log() {}, error() {}, warn() {}, debug() {}, verbose() {} };
const LIMITS: LiveStreamLimits = { perCaller: 50, bufferedBytes: 256 * 1024, stallMs: 300 };

/** A raw client: what it sends, and when it drops, is the test's to say. */
function open(port: number, path: string, { read = true } = {}): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(`GET ${path} HTTP/1.1\r\nhost: test\r\naccept: text/event-stream\r\n\r\n`);
      if (!read) socket.pause();
      else socket.resume();
      resolve(socket);
    });
    socket.on('error', () => undefined);
    socket.once('error', reject);
  });
}

/** What the client gets until its stream ends (`event: end`) or its connection closes. */
function readToEnd(client: Socket): Promise<string> {
  return new Promise((resolve) => {
    let tail = '';
    const done = () => {
      client.destroy();
      resolve(tail);
    };
    client.on('data', (chunk: Buffer) => {
      tail = (tail + chunk.toString('latin1')).slice(-300);
      if (/event: end\ndata: .*\n\n/.test(tail)) done();
    });
    client.once('close', done).resume();
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(20);
  }
}

/** Counts the 15 s heartbeats streams start from now on and have not cleared yet. */
function heartbeats(): () => number {
  const running = new Set<NodeJS.Timeout>();
  const { setInterval: set, clearInterval: clear } = global;
  jest.spyOn(global, 'setInterval').mockImplementation(((handler: () => void, ms?: number) => {
    const timer = set(handler, ms);
    if (ms === 15_000) running.add(timer);
    return timer;
  }) as unknown as typeof setInterval);
  jest.spyOn(global, 'clearInterval').mockImplementation((timer) => {
    running.delete(timer as NodeJS.Timeout);
    clear(timer);
  });
  return () => running.size;
}

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
function heapUsed(): number {
  gc();
  return process.memoryUsage().heapUsed;
}

describe('live streams whose clients drop', () => {
  let app: NestFastifyApplication;
  let port: number;
  let feed: TestFeed;
  let writer: NodeJS.Timeout;
  const streams = () => liveStreamsOf(app.getHttpAdapter().getInstance()).load();
  const openStreams = () => streams().reduce((sum, load) => sum + load.open, 0);

  beforeAll(async () => {
    while (store.entries.length < 1500) store.append();
    app = await createHttpApp(StreamsModule, { logger: quiet, liveStreams: LIMITS });
    await app.listen(0, '127.0.0.1');
    port = (app.getHttpServer().address() as { port: number }).port;
    feed = app.get(TestFeed);
    // Events keep being written while clients come and go.
    writer = setInterval(() => {
      store.append();
      feed.wake();
    }, 5);
  });
  afterAll(async () => {
    clearInterval(writer);
    await app.close();
  });
  afterEach(() => {
    store.queryMs = 0;
    store.failing = false;
    jest.restoreAllMocks();
  });

  it('lets go of every stream, subscriber, heartbeat and loop, and the heap stays bounded', async () => {
    store.queryMs = 15; // catch-up takes several slow pages: most drops land in it
    const running = heartbeats();
    const before = heapUsed();
    for (let round = 0; round < 6; round++) {
      const clients = await Promise.all(
        Array.from({ length: 12 }, (_, i) => open(port, i % 2 === 0 ? '/events' : '/feed')),
      );
      await sleep(5 + round * 8);
      for (const client of clients) client.destroy();
    }
    await until(() => openStreams() === 0 && feed.subscriberCount === 0);
    expect(running()).toBe(0);
    // Readers that never read: let go once they leave too much untaken for stallMs.
    const admit = jest.spyOn(liveStreamsOf(app.getHttpAdapter().getInstance()), 'admit');
    const stalled = await Promise.all([
      open(port, '/events', { read: false }),
      open(port, '/feed', { read: false }),
    ]);
    await until(() => admit.mock.calls.length === 2);
    await until(() => openStreams() === 0 && feed.subscriberCount === 0);
    // Reading now, the first finds the end it was sent (where to resume); the second was cut.
    const [events, internal] = await Promise.all(stalled.map(readToEnd));
    expect(events).toMatch(/event: end\ndata: \{"reason":"too_slow","last_event_id":"\d+"\}/);
    expect(internal).not.toMatch(/event: end/);

    // No loop still polls for a client that has gone.
    const pages = store.pages;
    await sleep(600);
    expect(store.pages).toBe(pages);
    expect(heapUsed() - before).toBeLessThan(16 * 1024 * 1024);
  });

  it('leaves nothing subscribed and no heartbeat running when the catch-up query fails', async () => {
    store.failing = true;
    const running = heartbeats();
    const client = await open(port, '/feed');
    await new Promise((resolve) => client.once('close', resolve));
    await until(() => openStreams() === 0);
    expect(feed.subscriberCount).toBe(0);
    expect(running()).toBe(0);
  });
});

describe('live streams that are held', () => {
  let app: NestFastifyApplication;
  let port: number;
  let streams: ReturnType<typeof liveStreamsOf>;
  const openStreams = () => streams.load().reduce((sum, load) => sum + load.open, 0);

  beforeAll(async () => {
    while (store.entries.length < 1500) store.append();
    // Readers that take their time are not cut here.
    const limits = { ...LIMITS, perCaller: 2, stallMs: 60_000 };
    app = await createHttpApp(StreamsModule, { logger: quiet, liveStreams: limits });
    await app.listen(0, '127.0.0.1');
    port = (app.getHttpServer().address() as { port: number }).port;
    streams = liveStreamsOf(app.getHttpAdapter().getInstance());
  });
  afterAll(async () => {
    await app.close();
  });

  it('reports open streams and their buffered bytes by route', async () => {
    const client = await open(port, '/events', { read: false });
    await until(() => openStreams() === 1 && streams.load()[0].bufferedBytes > 0);
    const { body } = await scrape();
    expect(body).toMatch(/platform_live_streams_open\{route="\/events"\} 1/);
    expect(body).toMatch(/platform_live_stream_buffered_bytes\{route="\/events"\} [1-9]/);
    client.destroy();
    await until(() => openStreams() === 0);
  });

  it('refuses one stream more than the cap with 429, and admits one again once a stream ends', async () => {
    const request = () =>
      fetch(`http://127.0.0.1:${port}/events`, { headers: { accept: 'text/event-stream' } });
    const held = [await request(), await request()];
    expect(held.map((r) => r.status)).toEqual([200, 200]);
    const refused = await request();
    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type')).toMatch(/application\/problem\+json/);
    expect(await refused.json()).toMatchObject({ status: 429 });

    await held[0].body?.cancel();
    await until(() => openStreams() === 1);
    const again = await request();
    expect(again.status).toBe(200);
    await Promise.all([held[1].body?.cancel(), again.body?.cancel()]);
  });
});
