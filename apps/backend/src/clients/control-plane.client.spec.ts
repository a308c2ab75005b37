import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DomainError } from '@platform/domain';
import { withCorrelationId } from '@platform/telemetry';
import { ControlPlaneClient } from './control-plane.client';
import { Logger } from '@nestjs/common';

interface Seen {
  method?: string;
  url?: string;
  headers: IncomingMessage['headers'];
  body: string;
}

beforeAll(() => Logger.overrideLogger(false));
afterAll(() => Logger.overrideLogger(['log', 'error', 'warn']));

describe(ControlPlaneClient.name, () => {
  let server: Server;
  let baseUrl: string;
  let seen: Seen[];
  let answer: { status: number; headers: Record<string, string>; body: string };

  beforeAll(async () => {
    server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        seen.push({ method: request.method, url: request.url, headers: request.headers, body });
        response.writeHead(answer.status, answer.headers).end(answer.body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  beforeEach(() => {
    seen = [];
    answer = { status: 200, headers: { 'content-type': 'application/json' }, body: '{}' };
  });

  it('sends the internal token, the request id, the caller credentials and the body verbatim', async () => {
    const client = new ControlPlaneClient(baseUrl, 'internal-secret');
    // The correlation id of the request being served travels as x-request-id.
    await withCorrelationId('req-7', () =>
      client.request({
        method: 'POST',
        path: '/internal/v1/oauth/introspect',
        authorization: 'Basic YTpi',
        contentType: 'application/x-www-form-urlencoded',
        body: 'grant_type=client_credentials&scope=a+b',
      }),
    );
    await client.onApplicationShutdown();
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({
      method: 'POST',
      url: '/internal/v1/oauth/introspect',
      body: 'grant_type=client_credentials&scope=a+b',
    });
    expect(seen[0].headers).toMatchObject({
      'x-internal-token': 'internal-secret',
      'x-request-id': 'req-7',
      authorization: 'Basic YTpi',
      'content-type': 'application/x-www-form-urlencoded',
    });
  });

  it('appends the query and relays only the public headers', async () => {
    answer = {
      status: 200,
      headers: {
        'content-type': 'application/json',
        link: '</api/v1/apps?after=a>; rel="next"',
        'x-powered-by': 'internals',
        'set-cookie': 'a=b',
      },
      body: '[]',
    };
    const client = new ControlPlaneClient(`${baseUrl}/`, 'internal-secret');
    const response = await client.request({
      method: 'GET',
      path: '/api/v1/apps',
      query: new URLSearchParams({ limit: '2' }),
    });
    await client.onApplicationShutdown();
    expect(seen[0].url).toBe('/api/v1/apps?limit=2');
    expect(response.status).toBe(200);
    expect(response.body.toString()).toBe('[]');
    expect(response.headers).toEqual({
      'content-type': 'application/json',
      link: '</api/v1/apps?after=a>; rel="next"',
    });
  });

  it('reports an unreachable control plane as unavailable', async () => {
    const client = new ControlPlaneClient('http://127.0.0.1:1', 'internal-secret');
    await expect(client.request({ method: 'GET', path: '/api/v1/jwks' })).rejects.toEqual(
      new DomainError('unavailable', 'The control plane is unavailable'),
    );
    await client.onApplicationShutdown();
  });

  it('reports a refused internal token as unavailable rather than relaying a 401 to the client', async () => {
    answer = { status: 401, headers: { 'content-type': 'application/problem+json' }, body: '{"status":401}' };
    const client = new ControlPlaneClient(baseUrl, 'stale-token');
    await expect(
      client.request({
        method: 'POST',
        path: '/internal/v1/oauth/introspect',
        contentType: 'application/x-www-form-urlencoded',
        body: '',
      }),
    ).rejects.toMatchObject({ code: 'unavailable' });
    await client.onApplicationShutdown();
  });

  it('relays a 401 from an internal route that judges something the caller sent (a browser session)', async () => {
    answer = { status: 401, headers: { 'content-type': 'application/problem+json' }, body: '{"status":401}' };
    const client = new ControlPlaneClient(baseUrl, 'internal-secret');
    const response = await client.request({
      method: 'POST',
      path: '/internal/v1/sessions/resolve',
      contentType: 'application/json',
      body: '{"session":"s"}',
      answersUnauthorized: true,
    });
    await client.onApplicationShutdown();
    expect(response.status).toBe(401);
  });

  it('relays a 401 from an admin route, where it judges the caller', async () => {
    answer = {
      status: 401,
      headers: { 'content-type': 'application/problem+json', 'www-authenticate': 'Bearer realm="oauth"' },
      body: '{}',
    };
    const client = new ControlPlaneClient(baseUrl, 'internal-secret');
    const response = await client.request({ method: 'GET', path: '/api/v1/apps' });
    await client.onApplicationShutdown();
    expect(response.status).toBe(401);
    expect(response.headers['www-authenticate']).toBe('Bearer realm="oauth"');
  });
});
