import { randomBytes } from 'node:crypto';
import { adminToken, clientCredentialsToken, discover, registerApp } from '../../support/oauth';
import { durabilityDatabases, KILL_AFTER, writeThroughKill } from '../../support/durability';
import { startPlatform, type TestPlatform } from '../../support/platform';

const databases = durabilityDatabases('secret');

/**
 * Secret writes racing a kill -9 of the control plane: every write it acknowledged opens after
 * the restart, to its value, with its audit record; one it did not acknowledge is there whole
 * (value and record) or not at all; none answered 500.
 */
describe.each(databases)('secrets across a kill -9 of the control plane ($name)', ({ scratch }) => {
  let platform: TestPlatform;
  let drop: (() => Promise<void>) | undefined;
  let admin: string;
  let writer: string;

  beforeAll(async () => {
    const database = scratch ? await scratch() : undefined;
    drop = database?.drop;
    platform = await startPlatform({
      ...(database && { databaseUrl: database.url }),
      env: { SECRETS_KEK: randomBytes(32).toString('base64') },
    });
    const as = await discover(platform);
    admin = await adminToken(as, platform);
    const app = await registerApp(platform, admin, {
      client_id: 'durable-deployer',
      declared_scopes: ['secrets.read', 'secrets.write'],
    });
    writer = (await clientCredentialsToken(as, { clientId: app.client_id, clientSecret: app.client_secret! }))
      .access_token;
  });
  afterAll(async () => {
    await platform?.stop();
    await drop?.();
  });

  const secret = (i: number, method: 'PUT' | 'GET') =>
    fetch(`${platform.baseUrl}/api/v1/tenants/acme/secrets/crash-${i}`, {
      method,
      headers: { authorization: `Bearer ${writer}`, 'content-type': 'application/json' },
      ...(method === 'PUT' && { body: JSON.stringify({ value: `value-${i}` }) }),
    });
  const writesAudited = async (i: number) => {
    const query = new URLSearchParams({ action: 'secret.written', target: `crash-${i}` });
    const response = await fetch(`${platform.baseUrl}/api/v1/audit/records?${query}`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    return ((await response.json()) as { records: unknown[] }).records.length;
  };

  it('keeps every acknowledged write, whole, and opens it after the restart', async () => {
    const statuses = await writeThroughKill(platform, (i) => secret(i, 'PUT'));
    const answered = [...statuses.values()];
    expect(answered.filter((s) => s === 200).length).toBeGreaterThanOrEqual(KILL_AFTER);
    expect(answered.filter((s) => s !== 200).length).toBeGreaterThan(0);
    for (const status of answered) expect([200, 502, 503, 504]).toContain(status);

    await platform.restartProcess('control-plane');

    for (const i of statuses.keys()) {
      const stored = await secret(i, 'GET');
      if (statuses.get(i) === 200) expect(stored.status).toBe(200);
      else expect([200, 404]).toContain(stored.status);
      if (stored.status !== 200) continue;
      expect(await stored.json()).toMatchObject({ name: `crash-${i}`, version: 1, value: `value-${i}` });
      expect(await writesAudited(i)).toBe(1);
    }
  });
});
