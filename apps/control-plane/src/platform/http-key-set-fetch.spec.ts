import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpKeySetFetch, KEY_SET_MAX_BYTES } from './http-key-set-fetch';

const get = (fetcher: HttpKeySetFetch, url: string) => fetcher.fetch(url, { method: 'GET' });

describe(HttpKeySetFetch.name, () => {
  let server: Server;
  let base: string;
  let body = '{"keys":[]}';

  beforeAll(async () => {
    server = createServer((request, response) => {
      if (request.url === '/redirect') {
        response.writeHead(302, { location: '/jwks' }).end();
        return;
      }
      response.setHeader('content-type', 'application/json');
      response.end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('fetches a key set where private addresses are allowed (outside production)', async () => {
    const fetcher = new HttpKeySetFetch({ timeoutMs: 2_000, allowPrivateNetworks: true });
    body = '{"keys":[{"kty":"EC"}]}';
    const response = await get(fetcher, `${base}/jwks`);
    expect(response.status).toBe(200);
    await expect(response.json()).resolves.toEqual({ keys: [{ kty: 'EC' }] });
    await fetcher.close();
  });

  it('follows no redirect: the 3xx is the answer', async () => {
    const fetcher = new HttpKeySetFetch({ timeoutMs: 2_000, allowPrivateNetworks: true });
    await expect(get(fetcher, `${base}/redirect`)).resolves.toMatchObject({ status: 302 });
    await fetcher.close();
  });

  it('refuses an answer larger than 64 KiB', async () => {
    const fetcher = new HttpKeySetFetch({ timeoutMs: 2_000, allowPrivateNetworks: true });
    body = JSON.stringify({ keys: [], padding: 'x'.repeat(KEY_SET_MAX_BYTES) });
    await expect(get(fetcher, `${base}/jwks`)).rejects.toThrow(/larger than/);
    await fetcher.close();
  });

  it('in production, refuses http, loopback, private and link-local addresses and local names, as webhooks do', async () => {
    const fetcher = new HttpKeySetFetch({ timeoutMs: 2_000, allowPrivateNetworks: false });
    await expect(get(fetcher, `${base}/jwks`)).rejects.toThrow();
    for (const url of [
      'https://127.0.0.1/jwks',
      'https://10.1.2.3/jwks',
      'https://[::ffff:169.254.169.254]/jwks',
      'https://localhost/jwks',
    ]) {
      await expect(get(fetcher, url)).rejects.toThrow();
    }
    await fetcher.close();
  });
});
