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
