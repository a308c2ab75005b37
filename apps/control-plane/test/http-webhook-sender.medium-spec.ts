import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpWebhookSender, WEBHOOK_RESPONSE_EXCERPT_BYTES } from '../src/webhooks/http-webhook-sender';

/** The sender against a real local HTTP server. */
describe(HttpWebhookSender.name, () => {
  let server: Server;
  let port: number;
  let answer: (res: ServerResponse) => void;
  const seen: Array<{ url?: string; headers: Record<string, unknown>; body: string }> = [];
  const lenient = new HttpWebhookSender({ timeoutMs: 300, allowPrivateNetworks: true });
  const strict = new HttpWebhookSender({ timeoutMs: 300, allowPrivateNetworks: false });
  const send = (sender: HttpWebhookSender, url = `http://127.0.0.1:${port}/hook`) =>
    sender.send(
      url,
      { 'content-type': 'application/json', 'webhook-id': 'msg_1' },
      '{"type":"token.issued"}',
    );

  beforeAll(async () => {
    server = createServer(async (req, res) => {
      let body = '';
      for await (const chunk of req) body += chunk;
      seen.push({ url: req.url, headers: req.headers, body });
      answer(res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  beforeEach(() => {
    seen.length = 0;
  });
  afterAll(async () => {
    await Promise.all([lenient.close(), strict.close()]);
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('posts the body and headers, and reports the status', async () => {
    answer = (res) => res.writeHead(204).end();
    await expect(send(lenient)).resolves.toEqual({ status: 204, error: null, excerpt: null });
    expect(seen).toEqual([
      {
        url: '/hook',
        headers: expect.objectContaining({ 'webhook-id': 'msg_1', 'content-type': 'application/json' }),
        body: '{"type":"token.issued"}',
      },
    ]);
  });

  it('keeps only the first KiB of a large answer', async () => {
    answer = (res) => res.writeHead(500).end('x'.repeat(100_000));
    const response = await send(lenient);
    expect(response.status).toBe(500);
    expect(response.excerpt).toHaveLength(WEBHOOK_RESPONSE_EXCERPT_BYTES);
  });

  it('does not follow a redirect: a 3xx is what the attempt got', async () => {
    answer = (res) => res.writeHead(302, { location: 'http://169.254.169.254/' }).end();
    await expect(send(lenient)).resolves.toMatchObject({ status: 302 });
    expect(seen).toHaveLength(1);
  });

  it('gives up on a receiver that does not answer in time', async () => {
    answer = () => undefined;
    await expect(send(lenient)).resolves.toEqual({
      status: null,
      error: 'no answer within 300 ms',
      excerpt: null,
    });
  });

  it('reports a refused connection', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const response = await send(lenient, `http://127.0.0.1:${closedPort}/`);
    expect(response).toMatchObject({ status: null, error: expect.stringContaining('ECONNREFUSED') });
  });

  it('in production never connects to a private address, given as such or by a name', async () => {
    answer = (res) => res.writeHead(204).end();
    await expect(send(strict)).resolves.toEqual({
      status: null,
      error: 'address 127.0.0.1 is not a public address',
      excerpt: null,
    });
    // A name that passed registration but resolves inwards (DNS rebinding) is refused at connect.
    const byName = await send(strict, `http://localhost:${port}/hook`);
    expect(byName).toMatchObject({
      status: null,
      error: expect.stringMatching(/localhost resolves to .*, not a public address/),
    });
    expect(seen).toEqual([]);
  });
});
