import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { withCorrelationId } from '@platform/telemetry';
import { ControlPlaneConnection } from './control-plane-connection';

describe(ControlPlaneConnection.name, () => {
  let server: Server;
  let base: string;
  const seen: Array<{ url?: string; headers: IncomingHttpHeaders }> = [];

  beforeAll(async () => {
    server = createServer((request, response) => {
      seen.push({ url: request.url, headers: request.headers });
      response.end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('sends every request under the base path, with the internal token and the correlation id', async () => {
    const connection = new ControlPlaneConnection(`${base}/cp/`, 'internal-secret', { connections: 1 });
    const answer = await withCorrelationId('req-11', () =>
      connection.request({
        method: 'GET',
        path: '/internal/v1/x?after=3',
        headers: { accept: 'application/json' },
      }),
    );
    await answer.body.dump();
    await connection.close();

    expect(seen[0].url).toBe('/cp/internal/v1/x?after=3');
    expect(seen[0].headers).toMatchObject({
      'x-internal-token': 'internal-secret',
      'x-request-id': 'req-11',
      accept: 'application/json',
    });
  });

  it('sends no correlation id outside a request', async () => {
    const connection = new ControlPlaneConnection(base, 'internal-secret', { connections: 1 });
    await (await connection.request({ method: 'GET', path: '/health' })).body.dump();
    await connection.close();
    expect(seen[1].headers['x-request-id']).toBeUndefined();
  });
});
