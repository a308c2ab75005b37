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
