import { createServer, type IncomingHttpHeaders, type ServerResponse, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Logger } from '@nestjs/common';
import type { TokenBatchDto, TokenBatchRequestDto } from '@platform/internal';
import { withCorrelationId } from '@platform/telemetry';
import { ControlPlaneClient } from './control-plane.client';

/** One call the control plane received: its headers and the requests it carried. */
interface Call {
  url?: string;
  headers: IncomingHttpHeaders;
  requests: TokenBatchRequestDto[];
  respond: (status?: number, body?: unknown) => void;
}

const UNAVAILABLE = { code: 'unavailable', message: 'The control plane is unavailable' };

/** Answers each request by echoing its form, as the control plane answers a token request. */
function answersFor(requests: TokenBatchRequestDto[]) {
  return {
    answers: requests.map((request) =>
      request.form.includes('bad')
        ? {
            status: 401,
            headers: { 'content-type': 'application/json', 'www-authenticate': 'Basic realm="oauth"' },
            body: { error: 'invalid_client' },
          }
        : { status: 200, headers: { 'cache-control': 'no-store' }, body: { access_token: request.form } },
    ),
  };
}

describe('ControlPlaneClient token requests (TokenBatcher)', () => {
  let server: Server;
  let baseUrl: string;
  let calls: Call[];
  /** When set, calls wait for the test to answer them. */
  let hold: boolean;
  let client: ControlPlaneClient;
  const errors = jest.fn();

  beforeAll(async () => {
    Logger.overrideLogger({ log: jest.fn(), warn: jest.fn(), error: errors });
    server = createServer((request, response: ServerResponse) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        const { requests } = JSON.parse(body) as TokenBatchDto;
        const respond = (status = 200, answer: unknown = answersFor(requests)) =>
          response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
        calls.push({ url: request.url, headers: request.headers, requests, respond });
        if (!hold) respond();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    Logger.overrideLogger(['log', 'error', 'warn']);
  });

  beforeEach(() => {
    calls = [];
    hold = false;
    errors.mockClear();
    client = new ControlPlaneClient(baseUrl, 'internal-secret');
  });

  afterEach(() => client.onApplicationShutdown());

  const until = async (condition: () => boolean) => {
    while (!condition()) await new Promise((resolve) => setTimeout(resolve, 2));
  };

  it('sends the requests of one turn in one call, each with its form, credentials and request id', async () => {
    await client.issueToken('grant_type=client_credentials', 'Basic YTpi');
    calls = [];
    const answers = await Promise.all([
      withCorrelationId('req-1', () => client.issueToken('grant_type=client_credentials&n=1', 'Basic YTpi')),
      withCorrelationId('req-2', () => client.issueToken('grant_type=client_credentials&n=2', undefined)),
      withCorrelationId('req-3', () => client.issueToken('bad', undefined)),
    ]);
    expect(calls).toHaveLength(1);
    expect(calls[0].url).toBe('/internal/v1/oauth/token-batch');
    expect(calls[0].headers).toMatchObject({
      'x-internal-token': 'internal-secret',
      'content-type': 'application/json',
    });
    // The call itself belongs to no request: each request carries its own id.
    expect(calls[0].headers['x-request-id']).toBeUndefined();
    expect(calls[0].requests).toEqual([
      { form: 'grant_type=client_credentials&n=1', authorization: 'Basic YTpi', request_id: 'req-1' },
      { form: 'grant_type=client_credentials&n=2', request_id: 'req-2' },
      { form: 'bad', request_id: 'req-3' },
    ]);
    expect(answers.map((answer) => [answer.status, JSON.parse(answer.body.toString())])).toEqual([
      [200, { access_token: 'grant_type=client_credentials&n=1' }],
      [200, { access_token: 'grant_type=client_credentials&n=2' }],
      [401, { error: 'invalid_client' }],
    ]);
    expect(answers[2].headers['www-authenticate']).toBe('Basic realm="oauth"');
  });

  it("carries a request's DPoP proof and the path it was sent to (RFC 9449)", async () => {
    await withCorrelationId('req-d', () =>
      client.issueToken('grant_type=client_credentials', 'Basic YTpi', {
        proof: 'h.p.s',
        path: '/v1/oauth/token',
      }),
    );

    expect(calls[0].requests).toEqual([
      {
        form: 'grant_type=client_credentials',
        authorization: 'Basic YTpi',
        dpop: 'h.p.s',
        dpop_path: '/v1/oauth/token',
        request_id: 'req-d',
      },
    ]);
  });

  it('sends a lone request at once, and gathers those arriving while two calls are out', async () => {
    hold = true;
    const first = client.issueToken('n=1', undefined);
    await until(() => calls.length === 1);
    const second = client.issueToken('n=2', undefined);
    await until(() => calls.length === 2);
    const waiting = [3, 4, 5].map((n) => client.issueToken(`n=${n}`, undefined));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(calls).toHaveLength(2);
    calls[1].respond();
    await second;
    await until(() => calls.length === 3);
    expect(calls[2].requests.map((request) => request.form)).toEqual(['n=3', 'n=4', 'n=5']);
    calls[0].respond();
    calls[2].respond();
    expect((await first).status).toBe(200);
    expect(await Promise.all(waiting)).toHaveLength(3);
  });

  it('sends a request whose credentials have not yet won a token alone, holding no batch', async () => {
    await client.issueToken('grant_type=client_credentials', 'Basic a25vd246Z29vZA==');
    calls = [];
    hold = true;
    const batched = [
      client.issueToken('grant_type=client_credentials&n=1', 'Basic a25vd246Z29vZA=='),
      client.issueToken('grant_type=client_credentials&n=2', undefined),
    ];
    const alone = client.issueToken('bad', 'Basic a25vd246d3Jvbmc=');
    await until(() => calls.length === 2);
    const single = calls.find((call) => call.requests.length === 1)!;
    expect(single.requests[0].authorization).toBe('Basic a25vd246d3Jvbmc=');
    // The batch is answered while the wrong secret's argon2 run is still under way.
    calls.find((call) => call !== single)!.respond();
    expect((await Promise.all(batched)).map((answer) => answer.status)).toEqual([200, 200]);
    single.respond();
    expect((await alone).status).toBe(401);
  });

  it('batches credentials once they have won a token, and sends them alone again once refused', async () => {
    const callsOf = async (form: string) => {
      calls = [];
      await Promise.all([
        client.issueToken(form, 'Basic bmV3OnNlY3JldA=='),
        client.issueToken('n', undefined),
      ]);
      return calls.length;
    };
    expect(await callsOf('grant_type=client_credentials')).toBe(2);
    expect(await callsOf('grant_type=client_credentials')).toBe(1);
    expect(await callsOf('bad')).toBe(1); // refused: the secret was rotated away
    expect(await callsOf('grant_type=client_credentials')).toBe(2);
  });

  it('puts at most 64 requests in one call', async () => {
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, n) => client.issueToken(`n=${n}`, undefined)),
    );
    expect(calls.map((call) => call.requests.length)).toEqual([64, 36]);
    expect(answers.map((answer) => JSON.parse(answer.body.toString()).access_token)).toEqual(
      Array.from({ length: 100 }, (_, n) => `n=${n}`),
    );
  });

  it('fails each request of a call the control plane cannot answer as unavailable, and logs it', async () => {
    hold = true;
    const refused = [client.issueToken('n=1', undefined), client.issueToken('n=2', undefined)];
    await until(() => calls.length === 1);
    calls[0].respond(400, { error: 'invalid_request' });
    for (const answer of refused) await expect(answer).rejects.toMatchObject(UNAVAILABLE);
    expect(errors).toHaveBeenCalledWith(
      'control plane answered a batch of 2 token requests with 400',
      undefined,
      'TokenBatcher',
    );

    const short = client.issueToken('n=3', undefined);
    await until(() => calls.length === 2);
    calls[1].respond(200, { answers: [] });
    await expect(short).rejects.toMatchObject(UNAVAILABLE);
  });

  it('fails each request as unavailable when the control plane is unreachable', async () => {
    const unreachable = new ControlPlaneClient('http://127.0.0.1:1', 'internal-secret');
    const answers = [unreachable.issueToken('n=1', undefined), unreachable.issueToken('n=2', undefined)];
    for (const answer of answers) await expect(answer).rejects.toMatchObject(UNAVAILABLE);
    await unreachable.onApplicationShutdown();
  });

  it('answers every request handed over before shutting down', async () => {
    hold = true;
    // Its own client: the one of the other tests is shut down after each.
    const closing = new ControlPlaneClient(baseUrl, 'internal-secret');
    const answers = [1, 2, 3].map((n) => closing.issueToken(`n=${n}`, undefined));
    await until(() => calls.length === 1);
    const later = closing.issueToken('n=4', undefined);
    let closed = false;
    const shutdown = closing.onApplicationShutdown().then(() => (closed = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(closed).toBe(false);
    calls[0].respond();
    await until(() => calls.length === 2);
    calls[1].respond();
    await shutdown;
    expect((await Promise.all([...answers, later])).map((answer) => answer.status)).toEqual([
      200, 200, 200, 200,
    ]);
  });

  it('answers a request sent alone before shutting down', async () => {
    const closing = new ControlPlaneClient(baseUrl, 'internal-secret');
    // Handed over in the same turn as the shutdown, before it has left.
    const answered = expect(closing.issueToken('n=1', 'Basic YTpi')).resolves.toMatchObject({ status: 200 });
    await closing.onApplicationShutdown();
    await answered;
  });
});
