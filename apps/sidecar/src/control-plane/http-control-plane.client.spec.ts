import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { withCorrelationId } from '@platform/telemetry';
import { SidecarError } from '../errors';
import { TEST_INTERNAL_TOKEN, testConfig } from '../testing/test-config';
import type { RevocationEntry } from '@platform/domain';
import { HttpControlPlaneClient } from './http-control-plane.client';

type Handler = (request: IncomingMessage, response: ServerResponse, body: string) => void;

const entry = (seq: number): RevocationEntry => ({
  seq,
  kind: 'jti',
  value: `jti-${seq}`,
  created_at: 1_800_000_000,
  expires_at: 1_800_003_600,
});

describe(HttpControlPlaneClient.name, () => {
  let server: Server;
  let handler: Handler;
  let seen: Array<{ method?: string; url?: string; headers: IncomingMessage['headers']; body: string }>;
  let client: HttpControlPlaneClient;

  const json =
    (status: number, payload: unknown): Handler =>
    (_request, response) => {
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(payload));
    };

  beforeAll(async () => {
    server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        seen.push({ method: request.method, url: request.url, headers: request.headers, body });
        handler(request, response, body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  beforeEach(() => {
    seen = [];
    const { port } = server.address() as AddressInfo;
    client = new HttpControlPlaneClient(testConfig({ controlPlaneUrl: `http://127.0.0.1:${port}` }));
  });

  afterEach(async () => {
    await client.onApplicationShutdown();
  });

  it('sends the internal token and reads the key set', async () => {
    handler = json(200, { keys: [{ kty: 'RSA', kid: 'k1', n: 'AQAB', e: 'AQAB' }] });

    await expect(client.fetchJwks()).resolves.toEqual({
      keys: [{ kty: 'RSA', kid: 'k1', n: 'AQAB', e: 'AQAB' }],
    });
    expect(seen[0]).toMatchObject({ method: 'GET', url: '/api/v1/jwks' });
    expect(seen[0].headers['x-internal-token']).toBe(TEST_INTERNAL_TOKEN);
  });

  it('pulls the feed after a seq, forwarding the request id, and drops malformed entries', async () => {
    handler = json(200, { revocations: [entry(4), { seq: 5, kind: 'everything' }, entry(6)], last_seq: 6 });

    await expect(withCorrelationId('req-1', () => client.fetchRevocationsAfter(3, 1000))).resolves.toEqual({
      revocations: [entry(4), entry(6)],
      last_seq: 6,
    });
    expect(seen[0].url).toBe('/internal/v1/revocations?after=3&limit=1000');
    expect(seen[0].headers['x-request-id']).toBe('req-1');
  });

  it('reads the whole active deny-list', async () => {
    handler = json(200, { revocations: [entry(1)], last_seq: 9 });

    await expect(client.fetchActiveRevocations()).resolves.toEqual({ revocations: [entry(1)], last_seq: 9 });
    expect(seen[0].url).toBe('/internal/v1/revocations/active');
  });

  it('posts the token to revoke as JSON', async () => {
    handler = json(200, { revoked: true });

    await expect(client.revokeAccessToken('the.access.token')).resolves.toEqual({ revoked: true });
    expect(seen[0]).toMatchObject({
      method: 'POST',
      url: '/internal/v1/revocations',
      body: '{"token":"the.access.token"}',
    });
    expect(seen[0].headers['content-type']).toBe('application/json');
  });

  it("asks the control plane's quota count, the consumptions of one turn in one request", async () => {
    const usage = {
      meter: 'exports',
      limit: 5,
      used: 3,
      remaining: 2,
      period_start: '2026-11-01T00:00:00.000Z',
      period_end: '2026-12-01T00:00:00.000Z',
      period: 'month',
      enforcement: 'hard',
    };
    const limited = { limited: true, granted: true, replayed: false, usage };
    const unlimited = { limited: false, granted: true, replayed: false };
    handler = json(200, { answers: [limited, unlimited] });

    await expect(
      Promise.all([
        client.consumeQuota({ tenant: 'acme', meter: 'exports', units: 3, idempotency_key: 'k' }),
        client.consumeQuota({ tenant: 'acme', meter: 'uploads', units: 1 }),
      ]),
    ).resolves.toEqual([limited, unlimited]);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({
      method: 'POST',
      url: '/internal/v1/quotas/consumptions',
      body: JSON.stringify({
        consumptions: [
          { tenant: 'acme', meter: 'exports', units: 3, idempotency_key: 'k' },
          { tenant: 'acme', meter: 'uploads', units: 1 },
        ],
      }),
    });
    expect(seen[0].headers['x-internal-token']).toBe(TEST_INTERNAL_TOKEN);
  });

  it.each([
    ['a limited answer without its usage', [{ limited: true, granted: true, replayed: false }]],
    [
      'a usage without its window',
      [
        {
          limited: true,
          granted: true,
          replayed: false,
          usage: { meter: 'x', limit: 1, used: 0, remaining: 1 },
        },
      ],
    ],
    ['no verdict', [{ limited: true, usage: {} }]],
    ['fewer answers than consumptions', []],
  ])('refuses quota answers that are not one each: %s', async (_, answers) => {
    handler = json(200, { answers });

    await expect(client.consumeQuota({ tenant: 'acme', meter: 'exports', units: 1 })).rejects.toMatchObject({
      code: 'control_plane_rejected',
    });
  });

  it('keeps the path of a control plane URL mounted under a prefix', async () => {
    const { port } = server.address() as AddressInfo;
    const prefixed = new HttpControlPlaneClient(
      testConfig({ controlPlaneUrl: `http://127.0.0.1:${port}/cp` }),
    );
    handler = json(200, { keys: [] });

    await prefixed.fetchJwks();
    await prefixed.onApplicationShutdown();

    expect(seen[0].url).toBe('/cp/api/v1/jwks');
  });

  it.each([
    [503, 'control_plane_unavailable'],
    [401, 'control_plane_rejected'],
  ])('turns an HTTP %i into %s', async (status, code) => {
    handler = json(status, { title: 'nope' });

    await expect(client.fetchActiveRevocations()).rejects.toMatchObject({ code });
  });

  it('refuses an answer that is not the documented shape', async () => {
    handler = json(200, { unexpected: true });

    await expect(client.fetchActiveRevocations()).rejects.toMatchObject({ code: 'control_plane_rejected' });
  });

  it('reports an unreachable control plane as unavailable', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const unreachable = new HttpControlPlaneClient(
      testConfig({ controlPlaneUrl: `http://127.0.0.1:${port}` }),
    );

    const error = await unreachable.fetchJwks().catch((caught: unknown) => caught);
    await unreachable.onApplicationShutdown();

    expect(error).toBeInstanceOf(SidecarError);
    expect(error).toMatchObject({ code: 'control_plane_unavailable' });
  });

  it('follows the revocation stream from a seq, skipping pings, until aborted', async () => {
    handler = (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(': ping\n\n');
      response.write(`id: 8\ndata: ${JSON.stringify(entry(8))}\n\n`);
      response.write('data: not json\n\n');
      response.write(`id: 9\ndata: ${JSON.stringify(entry(9))}\n\n`);
    };
    const abort = new AbortController();
    const opened = jest.fn();
    const received: RevocationEntry[] = [];

    const following = (async () => {
      for await (const item of client.streamRevocations(7, abort.signal, opened)) {
        received.push(item);
        if (received.length === 2) abort.abort();
      }
    })();

    await expect(following).rejects.toThrow();
    expect(received).toEqual([entry(8), entry(9)]);
    expect(opened).toHaveBeenCalledTimes(1);
    expect(seen[0].url).toBe('/internal/v1/revocations/stream?after=7');
    expect(seen[0].headers).toMatchObject({
      accept: 'text/event-stream',
      'x-internal-token': TEST_INTERNAL_TOKEN,
    });
  });

  it('fails the stream when the control plane refuses it', async () => {
    handler = json(401, { title: 'unauthorized' });
    const stream = client.streamRevocations(0, new AbortController().signal);

    await expect(stream[Symbol.asyncIterator]().next()).rejects.toMatchObject({
      code: 'control_plane_rejected',
    });
  });
});
