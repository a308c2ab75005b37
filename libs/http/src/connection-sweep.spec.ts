import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { closingOf } from './connection-sweep';

describe('closingOf', () => {
  let server: Server;
  let close: () => Promise<void>;
  let url: string;
  let answerSlowly: () => void;

  beforeEach(async () => {
    const slow = new Promise<void>((resolve) => (answerSlowly = resolve));
    server = createServer((request, response) => {
      if (request.url === '/slow') void slow.then(() => response.end('late'));
      else response.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    close = closingOf(server);
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterEach(() => server.closeAllConnections());

  const silentConnection = async () => {
    const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    return socket;
  };

  it('closes though a connection has sent nothing and another is kept alive after its answer', async () => {
    await expect(fetch(`${url}/`).then((response) => response.text())).resolves.toBe('ok');
    const silent = await silentConnection();
    const closed = new Promise((resolve) => silent.once('close', resolve));

    const started = Date.now();
    await close();

    // Node alone would keep the silent one until its headers timeout (60 s and more).
    expect(Date.now() - started).toBeLessThan(1_000);
    await closed;
  });

  it('lets a request being answered finish, then closes its connection', async () => {
    const answer = fetch(`${url}/slow`).then((response) => response.text());
    await new Promise((resolve) => setTimeout(resolve, 100));
    let done = false;
    const closing = close().then(() => (done = true));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(done).toBe(false);

    answerSlowly();
    await expect(answer).resolves.toBe('late');
    await closing;
  });
});
