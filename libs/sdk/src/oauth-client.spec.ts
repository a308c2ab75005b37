import type { FetchLike } from './fetch';
import { OAuthClient } from './oauth-client';

/** A fetch that records the requests and answers a token. */
function recordingFetch() {
  const requests: { headers: Record<string, string>; body: URLSearchParams }[] = [];
  const fetch: FetchLike = async (_url, init) => {
    requests.push({
      headers: init!.headers as Record<string, string>,
      body: new URLSearchParams(init!.body as string),
    });
    return new Response(JSON.stringify({ access_token: 'a', token_type: 'Bearer', expires_in: 1 }));
  };
  return { requests, fetch };
}

describe('OAuthClient.refresh', () => {
  it('authenticates a confidential client with its secret (RFC 6749 section 3.2.1)', async () => {
    const { requests, fetch } = recordingFetch();
    const oauth = new OAuthClient({
      baseUrl: 'https://auth.test',
      clientId: 'portal',
      clientSecret: 's',
      fetch,
    });
    await oauth.refresh('rt');
    expect(requests[0].headers.authorization).toBe(`Basic ${btoa('portal:s')}`);
    expect(Object.fromEntries(requests[0].body)).toEqual({
      grant_type: 'refresh_token',
      refresh_token: 'rt',
    });
  });

  it('sends a public client’s client_id alone', async () => {
    const { requests, fetch } = recordingFetch();
    const oauth = new OAuthClient({ baseUrl: 'https://auth.test', clientId: 'dashboard', fetch });
    await oauth.refresh('rt');
    expect(requests[0].headers.authorization).toBeUndefined();
    expect(Object.fromEntries(requests[0].body)).toEqual({
      grant_type: 'refresh_token',
      refresh_token: 'rt',
      client_id: 'dashboard',
    });
  });
});

describe('OAuthClient token exchange (RFC 8693) and resources (RFC 8707)', () => {
  const client = (fetch: FetchLike) =>
    new OAuthClient({ baseUrl: 'https://auth.test', clientId: 'orders', clientSecret: 's', fetch });

  it('asks client_credentials for one resource', async () => {
    const { requests, fetch } = recordingFetch();
    await client(fetch).clientCredentials({ resource: 'https://ledger.test' });
    expect(Object.fromEntries(requests[0].body)).toEqual({
      grant_type: 'client_credentials',
      resource: 'https://ledger.test',
    });
  });

  it('exchanges a subject token for an audience, naming an actor token when given', async () => {
    const { requests, fetch } = recordingFetch();
    await client(fetch).exchange({
      subjectToken: 'st',
      audience: 'ledger',
      scope: 'jobs.read',
      actorToken: 'at',
    });
    expect(requests[0].headers.authorization).toBe(`Basic ${btoa('orders:s')}`);
    expect(Object.fromEntries(requests[0].body)).toEqual({
      grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
      subject_token: 'st',
      subject_token_type: 'urn:ietf:params:oauth:token-type:access_token',
      actor_token: 'at',
      actor_token_type: 'urn:ietf:params:oauth:token-type:access_token',
      audience: 'ledger',
      scope: 'jobs.read',
    });
  });

  it('impersonates a user with the actor token and a reason', async () => {
    const { requests, fetch } = recordingFetch();
    await client(fetch).impersonate({ userId: 'u1', actorToken: 'at', reason: 'ticket 1' });
    expect(Object.fromEntries(requests[0].body)).toEqual({
      grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange',
      subject_token: 'u1',
      subject_token_type: 'urn:platform:params:oauth:token-type:user_id',
      actor_token: 'at',
      actor_token_type: 'urn:ietf:params:oauth:token-type:access_token',
      reason: 'ticket 1',
    });
  });

  it('validates a token for the audience a resource server names', async () => {
    const bodies: unknown[] = [];
    const fetch: FetchLike = async (url, init) => {
      expect(String(url)).toBe('https://auth.test/api/v1/auth/validate');
      bodies.push(JSON.parse(init!.body as string));
      return new Response(JSON.stringify({ active: false }));
    };
    await expect(client(fetch).validate('t', { audience: 'https://ledger.test' })).resolves.toEqual({
      active: false,
    });
    expect(bodies).toEqual([{ token: 't', audience: 'https://ledger.test' }]);
  });
});

describe('OAuthClient device flow (RFC 8628)', () => {
  /** A fetch answering each request with the next of `answers` (status and body). */
  function scriptedFetch(answers: Array<[number, object]>) {
    const requests: { url: string; headers: Record<string, string>; body: URLSearchParams }[] = [];
    const fetch: FetchLike = async (url, init) => {
      requests.push({
        url: String(url),
        headers: init!.headers as Record<string, string>,
        body: new URLSearchParams(init!.body as string),
      });
      const [status, body] = answers.shift() ?? [500, {}];
      return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    };
    return { requests, fetch };
  }
  const pending: [number, object] = [400, { error: 'authorization_pending' }];
  const tokens: [number, object] = [
    200,
    { access_token: 'at', token_type: 'Bearer', expires_in: 3600, scope: '' },
  ];

  it('asks for the codes with the client’s secret, or its client_id alone without one', async () => {
    const { requests, fetch } = scriptedFetch([
      [200, { device_code: 'dc' }],
      [200, { device_code: 'dc' }],
    ]);
    await new OAuthClient({
      baseUrl: 'https://auth.test',
      clientId: 'ops',
      clientSecret: 's',
      fetch,
    }).deviceAuthorization({
      scope: 'jobs.read',
    });
    await new OAuthClient({ baseUrl: 'https://auth.test', clientId: 'pub', fetch }).deviceAuthorization();

    expect(requests[0].url).toBe('https://auth.test/v1/oauth/device_authorization');
    expect(requests[0].headers.authorization).toBe(`Basic ${btoa('ops:s')}`);
    expect(Object.fromEntries(requests[0].body)).toEqual({ scope: 'jobs.read' });
    expect(requests[1].headers.authorization).toBeUndefined();
    expect(Object.fromEntries(requests[1].body)).toEqual({ client_id: 'pub' });
  });

  it('polls every interval, 5 s longer after each slow_down, until the tokens come', async () => {
    const { requests, fetch } = scriptedFetch([pending, [400, { error: 'slow_down' }], pending, tokens]);
    const waits: number[] = [];
    const oauth = new OAuthClient({ baseUrl: 'https://auth.test', clientId: 'pub', fetch });

    await expect(
      oauth.pollDeviceToken({ device_code: 'dc', interval: 5 }, { sleep: async (ms) => void waits.push(ms) }),
    ).resolves.toMatchObject({ access_token: 'at' });

    expect(waits).toEqual([5000, 5000, 10000, 10000]);
    expect(Object.fromEntries(requests[0].body)).toEqual({
      grant_type: 'urn:ietf:params:oauth:grant-type:device_code',
      device_code: 'dc',
      client_id: 'pub',
    });
  });

  it.each(['access_denied', 'expired_token', 'invalid_grant'])('stops at %s', async (error) => {
    const { requests, fetch } = scriptedFetch([pending, [400, { error }], tokens]);
    const oauth = new OAuthClient({ baseUrl: 'https://auth.test', clientId: 'pub', fetch });

    await expect(
      oauth.pollDeviceToken({ device_code: 'dc', interval: 5 }, { sleep: async () => undefined }),
    ).rejects.toMatchObject({ error });
    expect(requests).toHaveLength(2);
  });

  it('stops when its signal aborts', async () => {
    const { fetch } = scriptedFetch([]);
    const oauth = new OAuthClient({ baseUrl: 'https://auth.test', clientId: 'pub', fetch });
    const controller = new AbortController();
    const polling = oauth.pollDeviceToken({ device_code: 'dc', interval: 60 }, { signal: controller.signal });
    controller.abort(new Error('interrupted'));
    await expect(polling).rejects.toThrow('interrupted');
  });
});
