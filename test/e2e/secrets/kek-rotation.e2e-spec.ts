import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { adminToken, clientCredentialsToken, discover, registerApp } from '../../support/oauth';
import { startControlPlaneReplica, startPlatform, type TestPlatform } from '../../support/platform';

const kek = () => randomBytes(32).toString('base64');
const SECRETS = 60;

describe('rotating the key-encryption key across control planes', () => {
  const [oldKek, newKek] = [kek(), kek()];
  let platform: TestPlatform;
  let admin: string;
  let writer: string;
  const webhooks: string[] = [];
  const stops: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    platform = await startPlatform({ env: { SECRETS_KEK: oldKek } });
    const as = await discover(platform);
    admin = await adminToken(as, platform);
    const app = await registerApp(platform, admin, {
      client_id: 'deployer',
      declared_scopes: ['secrets.read', 'secrets.write'],
    });
    writer = (await clientCredentialsToken(as, { clientId: 'deployer', clientSecret: app.client_secret! }))
      .access_token;
    for (let i = 0; i < SECRETS; i += 1) {
      const response = await fetch(`${platform.baseUrl}/api/v1/tenants/acme/secrets/s-${i}`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${writer}`, 'content-type': 'application/json' },
        body: JSON.stringify({ value: `value-${i}` }),
      });
      if (response.status !== 200) throw new Error(`write ${i}: ${response.status}`);
    }
    for (const path of ['a', 'b']) {
      const response = await fetch(`${platform.baseUrl}/api/v1/webhooks`, {
        method: 'POST',
        headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url: `https://hooks.example.com/${path}`, event_types: ['token.*'] }),
      });
      webhooks.push(((await response.json()) as { id: string }).id);
    }
  });
  afterAll(async () => {
    for (const stop of stops) await stop();
    await platform?.stop();
  });

  const replica = async (env: Record<string, string>) => {
    const started = await startControlPlaneReplica(platform, env);
    stops.push(started.stop);
    return started.url;
  };
  /** A read at one control plane, as the backend relays it for an authorized caller. */
  const readAt = async (controlPlane: string, name: string) => {
    const principal = Buffer.from(
      JSON.stringify({
        kind: 'service',
        id: 'deployer',
        client_id: 'deployer',
        roles: [],
        scope: 'secrets.read',
      }),
    ).toString('base64url');
    const response = await fetch(`${controlPlane}/internal/v1/tenants/acme/secrets/${name}`, {
      headers: { 'x-internal-token': platform.internalToken, 'x-platform-principal': principal },
    });
    return { status: response.status, body: (await response.json()) as { value?: string; detail?: string } };
  };
  const ciphertexts = () => {
    const db = new Database(join(platform.dataDir, 'platform.sqlite'), { readonly: true });
    const rows = db.prepare('SELECT name, ciphertext, kek_id FROM secret_versions ORDER BY name').all();
    db.close();
    return rows as Array<{ name: string; ciphertext: string; kek_id: string }>;
  };
  /** The webhook endpoints' stored secrets; `put` first stores one as given (in the clear, damaged). */
  const webhookSecrets = (put?: { id: string; secret: string }) => {
    const db = new Database(join(platform.dataDir, 'platform.sqlite'));
    if (put) db.prepare('UPDATE webhook_endpoints SET secret = ? WHERE id = ?').run(put.secret, put.id);
    const rows = db.prepare('SELECT id, secret FROM webhook_endpoints').all() as Array<{
      id: string;
      secret: string;
    }>;
    db.close();
    return new Map(rows.map((row) => [row.id, row.secret]));
  };

  it('reads on through the rollout, rewraps without touching a value, then needs only the new key', async () => {
    const before = ciphertexts();
    expect(new Set(before.map((r) => r.kek_id)).size).toBe(1);
    const clear = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    webhookSecrets({ id: webhooks[1], secret: clear });

    // Step 1: every control plane takes the new key, the old one as previous. Starting, it seals
    // the webhook secret an earlier release left in the clear.
    const rolled = await replica({ SECRETS_KEK: newKek, SECRETS_KEK_PREVIOUS: oldKek });
    expect(JSON.parse(webhookSecrets().get(webhooks[1])!)).toEqual({
      sealed: expect.objectContaining({ kekId: expect.any(String) }),
    });
    await expect(readAt(rolled, 's-0')).resolves.toEqual({
      status: 200,
      body: expect.objectContaining({ value: 'value-0' }),
    });

    // Step 2: rewrap, with reads going on meanwhile.
    const reads = Promise.all(Array.from({ length: SECRETS }, (_, i) => readAt(rolled, `s-${i}`)));
    const rewrap = await fetch(`${rolled}/api/v1/secrets/rewrap`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(rewrap.status).toBe(200);
    const outcome = (await rewrap.json()) as { rewrapped: number; signing_keys: number; kek_id: string };
    // The webhook secret sealed at the start is under the new key already: one to move.
    expect(outcome).toMatchObject({ rewrapped: SECRETS, signing_keys: 1, webhook_secrets: 1 });
    for (const stored of webhookSecrets().values())
      expect((JSON.parse(stored) as { sealed: { kekId: string } }).sealed.kekId).toBe(outcome.kek_id);
    for (const [i, read] of (await reads).entries())
      expect(read).toMatchObject({ status: 200, body: { value: `value-${i}` } });

    const after = ciphertexts();
    expect(after.map((r) => r.ciphertext)).toEqual(before.map((r) => r.ciphertext));
    expect(new Set(after.map((r) => r.kek_id))).toEqual(new Set([outcome.kek_id]));
    const again = await fetch(`${rolled}/api/v1/secrets/rewrap`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(await again.json()).toMatchObject({ rewrapped: 0 });

    // Step 3: the old key can go.
    const newOnly = await replica({ SECRETS_KEK: newKek });
    for (const i of [0, 17, SECRETS - 1]) {
      await expect(readAt(newOnly, `s-${i}`)).resolves.toMatchObject({
        status: 200,
        body: { value: `value-${i}` },
      });
    }
    // A control plane still on the old key alone cannot open them, and says which key it lacks.
    const stale = await readAt(platform.controlPlaneUrl, 's-0');
    expect(stale.status).toBe(503);
    expect(stale.body.detail).toContain(outcome.kek_id);

    const audit = await fetch(`${platform.baseUrl}/api/v1/audit/records?action=secrets.rewrapped`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    const { records } = (await audit.json()) as { records: Array<{ attributes: Record<string, unknown> }> };
    expect(records.map((r) => r.attributes)).toEqual([
      { kek_id: outcome.kek_id, rewrapped: SECRETS, signing_keys: 1, webhook_secrets: 1 },
      { kek_id: outcome.kek_id, rewrapped: 0, signing_keys: 0, webhook_secrets: 0 },
    ]);
  });

  it('answers 503 naming the damage, not 500, when a stored sealed value is not in the sealed form', async () => {
    webhookSecrets({ id: webhooks[0], secret: '{"sealed":{"ciphertext":"' });
    webhookSecrets({ id: webhooks[1], secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' });
    // It starts all the same: its start-up sealing pass logs the damaged row, leaves it as it is
    // and seals the other endpoint's clear secret.
    const controlPlane = await replica({ SECRETS_KEK: newKek });
    const stored = webhookSecrets();
    expect(stored.get(webhooks[0])).toBe('{"sealed":{"ciphertext":"');
    expect(JSON.parse(stored.get(webhooks[1])!)).toEqual({
      sealed: expect.objectContaining({ kekId: expect.any(String) }),
    });

    const rewrap = await fetch(`${controlPlane}/api/v1/secrets/rewrap`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(rewrap.status).toBe(503);
    expect(rewrap.headers.get('content-type')).toContain('application/problem+json');
    expect(await rewrap.json()).toMatchObject({ detail: expect.stringContaining('damaged') });
  });
});
