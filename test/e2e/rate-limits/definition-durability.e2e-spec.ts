import { type CheckRateLimitResult, createRateLimitServiceClient } from '@platform/grpc';
import { unaryCall } from '../../support/grpc';
import { adminToken, clientCredentialsToken, discover, registerApp } from '../../support/oauth';
import { durabilityDatabases, KILL_AFTER, writeThroughKill } from '../../support/durability';
import { startPlatform, type TestPlatform } from '../../support/platform';

const databases = durabilityDatabases('definition');

/**
 * Definition writes racing a kill -9 of the control plane: every write it acknowledged is there
 * after the restart, with its audit record, and reaches the sidecar; a write it did not
 * acknowledge is there whole (definition and audit record) or not at all; none answered 500.
 */
describe.each(databases)('definitions across a kill -9 of the control plane ($name)', ({ scratch }) => {
  let platform: TestPlatform;
  let drop: (() => Promise<void>) | undefined;
  let admin: string;
  let service: string;

  beforeAll(async () => {
    const database = scratch ? await scratch() : undefined;
    drop = database?.drop;
    platform = await startPlatform(database ? { databaseUrl: database.url } : {});
    const as = await discover(platform);
    admin = await adminToken(as, platform);
    const gateway = await registerApp(platform, admin, {
      client_id: 'durable-gateway',
      declared_scopes: ['ratelimit.check'],
    });
    service = (
      await clientCredentialsToken(as, { clientId: gateway.client_id, clientSecret: gateway.client_secret! })
    ).access_token;
  });
  afterAll(async () => {
    await platform?.stop();
    await drop?.();
  });

  const rules = (domain: string, method: 'PUT' | 'GET', requestsPerUnit?: number) =>
    fetch(`${platform.baseUrl}/api/v1/tenants/default/rate-limits/${domain}`, {
      method,
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      ...(requestsPerUnit !== undefined && {
        body: JSON.stringify({
          descriptors: [{ key: 'user', rate_limit: { unit: 'minute', requests_per_unit: requestsPerUnit } }],
        }),
      }),
    });
  const auditedChanges = async (domain: string) => {
    const query = new URLSearchParams({ action: 'ratelimit.rules_changed', target: domain });
    const response = await fetch(`${platform.baseUrl}/api/v1/audit/records?${query}`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { records: unknown[] }).records.length;
  };

  it('keeps every acknowledged write, whole, and the sidecar serves it after the restart', async () => {
    const statuses = await writeThroughKill(platform, (i) => rules(`crash-${i}`, 'PUT', i + 1));
    const answered = [...statuses.values()];
    expect(answered.filter((s) => s === 200).length).toBeGreaterThanOrEqual(KILL_AFTER);
    expect(answered.filter((s) => s !== 200).length).toBeGreaterThan(0);
    // A write the control plane could not take is refused as unavailable, never a 500.
    for (const status of answered) expect([200, 502, 503, 504]).toContain(status);

    await platform.restartProcess('control-plane');

    const acknowledged = [...statuses].filter(([, s]) => s === 200).map(([i]) => i);
    for (const i of statuses.keys()) {
      const stored = await rules(`crash-${i}`, 'GET');
      if (acknowledged.includes(i)) expect(stored.status).toBe(200);
      else expect([200, 404]).toContain(stored.status);
      if (stored.status !== 200) continue;
      expect(await stored.json()).toMatchObject({
        domain: `crash-${i}`,
        version: 1,
        descriptors: [{ key: 'user', rate_limit: { requests_per_unit: i + 1 } }],
      });
      expect(await auditedChanges(`crash-${i}`)).toBe(1);
    }

    // The sidecar outlived the control plane; it follows the feed again and serves every rule.
    const client = createRateLimitServiceClient(platform.sidecarAddress);
    try {
      const limitOf = async (i: number) => {
        const { error, response } = await unaryCall<CheckRateLimitResult>((metadata, options, done) =>
          client.CheckRateLimit(
            {
              token: service,
              tenant: 'default',
              domain: `crash-${i}`,
              descriptors: [{ entries: [{ key: 'user', value: 'u' }] }],
            },
            metadata,
            options,
            done,
          ),
        );
        return error ? undefined : response.statuses[0].current_limit?.requests_per_unit;
      };
      const deadline = Date.now() + 10_000;
      for (const i of acknowledged) {
        while ((await limitOf(i)) !== i + 1) {
          if (Date.now() > deadline) throw new Error(`the sidecar never served the rules of crash-${i}`);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }
    } finally {
      client.close();
    }
  });
});
