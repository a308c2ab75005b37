import type { FetchLike } from '@platform/sdk';
import type { TestPlatform } from '../../support/platform';

/** The real `fetch`, with every call recorded: counts what the SDK sends, sends it unchanged. */
export function recordingFetch() {
  const calls: Array<{ method: string; path: string }> = [];
  /** What went over the wire, for the tests that check how the SDK authenticates. */
  const sent: Array<{ path: string; authorization: string | null; body: string | undefined }> = [];
  const fetch: FetchLike = (url, init) => {
    calls.push({ method: (init?.method ?? 'GET').toUpperCase(), path: new URL(url).pathname });
    sent.push({
      path: new URL(url).pathname,
      authorization: new Headers(init?.headers).get('authorization'),
      body: typeof init?.body === 'string' ? init.body : undefined,
    });
    return globalThis.fetch(url, init);
  };
  return {
    fetch,
    calls,
    sent,
    count: (method: string, path: string) =>
      calls.filter((c) => c.method === method && c.path === path).length,
  };
}

/** Token issuance as the platform itself records it: `token.issued` events of one client. */
export async function issuedTokenCount(
  platform: TestPlatform,
  adminToken: string,
  clientId: string,
): Promise<number> {
  const response = await fetch(
    `${platform.baseUrl}/api/v1/token-events?client_id=${encodeURIComponent(clientId)}&limit=1000`,
    { headers: { authorization: `Bearer ${adminToken}` } },
  );
  if (response.status !== 200) throw new Error(`token events: ${response.status} ${await response.text()}`);
  const { events } = (await response.json()) as { events: Array<{ type: string }> };
  return events.filter((e) => e.type === 'token.issued').length;
}
