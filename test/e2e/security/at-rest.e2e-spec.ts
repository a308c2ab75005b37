import Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as client from 'openid-client';
import { Client } from 'pg';
import { authorize, clientFor, createSession, signIn } from '../../support/internal-consent';
import { adminToken, clientCredentialsToken, discover, registerApp } from '../../support/oauth';
import { platformDatabases } from '../../support/databases';
import { startPlatform, type TestPlatform } from '../../support/platform';

/** Every row of every table, as text, by table. */
type Dump = Map<string, string>;

async function dumpSqlite(platform: TestPlatform): Promise<Dump> {
  const db = new Database(join(platform.dataDir, 'platform.sqlite'), { readonly: true });
  try {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{
      name: string;
    }>;
    return new Map(
      tables.map(({ name }) => [name, JSON.stringify(db.prepare(`SELECT * FROM "${name}"`).all())]),
    );
  } finally {
    db.close();
  }
}

async function dumpPostgres(url: string): Promise<Dump> {
  const db = new Client({ connectionString: url });
  await db.connect();
  try {
    const { rows: tables } = await db.query<{ tablename: string }>(
      "SELECT tablename FROM pg_tables WHERE schemaname = 'public'",
    );
    const dump: Dump = new Map();
    for (const { tablename } of tables)
      dump.set(tablename, JSON.stringify((await db.query(`SELECT * FROM "${tablename}"`)).rows));
    return dump;
  } finally {
    await db.end();
  }
}

/**
 * After a full flow, nothing in the database can be used as a credential: client secrets,
 * codes, refresh tokens, sessions and access tokens are stored as hashes (or not at all); the
 * keys the platform must use itself (the signing keys' private parts, webhook signing secrets)
 * sealed under the key-encryption key (docs/secrets.md).
 */
describe.each(platformDatabases('the at-rest suite'))('secrets at rest ($name)', (database) => {
  let platform: TestPlatform;
  let db: { url?: string; drop(): Promise<void> } | undefined;
  const credentials = new Map<string, string>();
  let webhookSecret: string;

  beforeAll(async () => {
    db = await database.create();
    platform = await startPlatform(db.url ? { databaseUrl: db.url } : {});
    const as = await discover(platform);
    const admin = await adminToken(as, platform);
    credentials.set('admin client secret', platform.admin.clientSecret);
    credentials.set('admin access token', admin);

    const service = await registerApp(platform, admin, { client_id: 'at-rest-service' });
    credentials.set('service client secret', service.client_secret!);
    const serviceToken = (
      await clientCredentialsToken(as, { clientId: service.client_id, clientSecret: service.client_secret! })
    ).access_token;
    credentials.set('service access token', serviceToken);

    const deployer = await registerApp(platform, admin, {
      client_id: 'at-rest-deployer',
      declared_scopes: ['secrets.write'],
    });
    const deployerToken = (
      await clientCredentialsToken(as, {
        clientId: deployer.client_id,
        clientSecret: deployer.client_secret!,
      })
    ).access_token;
    const secretValue = `at-rest-${randomBytes(12).toString('hex')}`;
    const written = await fetch(`${platform.baseUrl}/api/v1/tenants/acme/secrets/db-password`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${deployerToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ value: secretValue }),
    });
    expect(written.status).toBe(200);
    credentials.set('secret value', secretValue);

    const web = await registerApp(platform, admin, {
      client_id: 'at-rest-web',
      app_type: 'web',
      redirect_uris: ['https://web.example.test/callback'],
    });
    credentials.set('web client secret', web.client_secret!);
    const { tokens, config } = await signIn(platform, web);
    credentials.set('user access token', tokens.access_token);
    credentials.set('refresh token (rotated)', tokens.refresh_token!);
    const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
    credentials.set('refresh token', refreshed.refresh_token!);

    const { session } = await createSession(platform);
    credentials.set('session', session);
    const { callback } = await authorize(platform, await clientFor(platform, web), {
      session,
      redirectUri: web.redirect_uris[0],
    });
    credentials.set('authorization code', callback.searchParams.get('code')!);

    const webhook = await fetch(`${platform.baseUrl}/api/v1/webhooks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'https://hooks.example.com/in', event_types: ['token.*'] }),
    });
    webhookSecret = ((await webhook.json()) as { secret: string }).secret;
  });
  afterAll(async () => {
    await platform?.stop();
    await db?.drop();
  });

  const dump = () => (db?.url ? dumpPostgres(db.url) : dumpSqlite(platform));

  it('holds no usable client secret, token, code or session, whole or without its prefix', async () => {
    const tables = await dump();
    expect(tables.size).toBeGreaterThan(10);
    const found: string[] = [];
    for (const [what, value] of credentials) {
      // The random part alone too: a prefix stripped before storing would still be a leak.
      const secretPart = value.replace(/^plat_[a-z]{2}_/, '');
      for (const [table, rows] of tables) {
        if (rows.includes(value) || rows.includes(secretPart)) found.push(`${what} in ${table}`);
      }
    }
    expect(found).toEqual([]);
  });

  it('keeps every credential and secret value out of the logs', async () => {
    const logs = readdirSync(platform.dataDir).filter((file) => file.endsWith('.log'));
    expect(logs).toContain('platform.log');
    const found: string[] = [];
    for (const file of logs) {
      const text = readFileSync(join(platform.dataDir, file), 'utf8');
      for (const [what, value] of credentials) if (text.includes(value)) found.push(`${what} in ${file}`);
    }
    expect(found).toEqual([]);
  });

  it('holds the keys the platform uses itself sealed: signing keys, webhook secrets', async () => {
    const tables = await dump();
    const holding = (needle: string) =>
      [...tables].filter(([, rows]) => rows.includes(needle)).map(([t]) => t);
    expect(webhookSecret).toMatch(/^whsec_/);
    expect(holding(webhookSecret.slice('whsec_'.length))).toEqual([]);
    expect(tables.get('webhook_endpoints')).toContain('sealed');
    // A private RSA JWK has its `d`: no table holds one in the clear.
    expect(
      [...tables].filter(([, rows]) => /"d\\?":\\?"[A-Za-z0-9_-]{100,}/.test(rows)).map(([t]) => t),
    ).toEqual([]);
    expect(tables.get('signing_keys')).toContain('sealed');
  });
});
