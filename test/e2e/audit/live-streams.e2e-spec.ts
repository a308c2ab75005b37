import type { AuditRecordDto, TokenEventDto } from '@platform/contract';
import { EventSource } from 'eventsource';
import {
  adminToken,
  clientCredentialsToken,
  discover,
  registerApp,
  type RegisteredApp,
} from '../../support/oauth';
import { sharedPlatform, type TestPlatform } from '../../support/platform';

/** Its own apps and tenant on the shared platform: it streams their events and ACME's records. */
const ACME = 'live-streams-acme';

/** Waits until `check` passes, polling; the live feeds poll their store every 250 ms. */
async function eventually(check: () => void, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

interface Received<T> {
  id: string;
  data: T;
}

describe('live streams (Server-Sent Events through the backend)', () => {
  let platform: TestPlatform;
  let admin: string;
  let as: Awaited<ReturnType<typeof discover>>;
  const open: EventSource[] = [];

  beforeAll(async () => {
    platform = sharedPlatform();
    as = await discover(platform);
    admin = await adminToken(as, platform);
  });
  afterAll(() => {
    for (const source of open) source.close();
  });

  /** A real EventSource client with the admin token, resuming after `lastEventId` when given. */
  function listen<T>(
    path: string,
    event: string,
    lastEventId?: string,
  ): { source: EventSource; received: Received<T>[] } {
    const received: Received<T>[] = [];
    const source = new EventSource(`${platform.baseUrl}${path}`, {
      fetch: (url, init) =>
        fetch(url, {
          ...init,
          headers: {
            ...init?.headers,
            authorization: `Bearer ${admin}`,
            ...(lastEventId !== undefined && { 'last-event-id': lastEventId }),
          },
        }),
    });
    source.addEventListener(event, (message) => {
      received.push({ id: message.lastEventId, data: JSON.parse(message.data as string) as T });
    });
    open.push(source);
    return { source, received };
  }

  const issue = (app: RegisteredApp) =>
    clientCredentialsToken(as, { clientId: app.client_id, clientSecret: app.client_secret! });

  it('streams the stored token events, then each new one, and resumes after Last-Event-ID without loss or repeats', async () => {
    const app = await registerApp(platform, admin, { client_id: 'live-worker' });
    await issue(app);

    const first = listen<TokenEventDto>('/api/v1/token-events?client_id=live-worker', 'token_event');
    await eventually(() =>
      expect(first.received.map((e) => e.data.type)).toEqual(['app.registered', 'token.issued']),
    );
    await issue(app);
    await eventually(() => expect(first.received).toHaveLength(3));
    first.source.close();

    await issue(app);
    await issue(app);
    const lastSeen = first.received[2].id;
    const resumed = listen<TokenEventDto>(
      '/api/v1/token-events?client_id=live-worker',
      'token_event',
      lastSeen,
    );
    await eventually(() => expect(resumed.received).toHaveLength(2));
    await new Promise((resolve) => setTimeout(resolve, 600));

    const ids = [...first.received, ...resumed.received].map((e) => Number(e.id));
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(5);
    expect(resumed.received.map((e) => e.data)).toEqual(
      resumed.received.map(() => expect.objectContaining({ type: 'token.issued', client_id: 'live-worker' })),
    );
    expect(resumed.received.every((e) => e.id === String(e.data.id))).toBe(true);
  });

  it('streams the audit log live, filtered, with the sequence id as the event id', async () => {
    const writer = await registerApp(platform, admin, {
      client_id: 'live-ledger',
      declared_scopes: ['audit.write'],
    });
    const token = (await issue(writer)).access_token;
    const emit = (target: string) =>
      fetch(`${platform.baseUrl}/api/v1/tenants/${ACME}/audit/records`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ action: 'ledger.closed', target }),
      });

    const live = listen<AuditRecordDto>(
      `/api/v1/audit/records?tenant=${ACME}&action=ledger.closed`,
      'audit_record',
    );
    await emit('period-1');
    await emit('period-2');

    await eventually(() => expect(live.received.map((r) => r.data.target)).toEqual(['period-1', 'period-2']));
    expect(live.received.map((r) => r.id)).toEqual(live.received.map((r) => String(r.data.sequence_id)));
  });

  it('answers a live request without an admin token as the paged one does', async () => {
    const response = await fetch(`${platform.baseUrl}/api/v1/token-events`, {
      headers: { accept: 'text/event-stream' },
    });

    expect(response.status).toBe(401);
  });
});
