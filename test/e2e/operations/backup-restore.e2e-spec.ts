import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { platformDatabases } from '../../support/databases';
import { adminToken, clientCredentialsToken, discover, postForm, registerApp } from '../../support/oauth';
import { startPlatform, type TestPlatform } from '../../support/platform';

const ROOT = join(__dirname, '..', '..', '..');
const PROCESSES = ['backend', 'sidecar', 'control-plane'] as const;

/** `node scripts/backup.mjs <args>` for the platform's database, as an operator runs it. */
function backupScript(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['scripts/backup.mjs', ...args],
      { cwd: ROOT, env: { ...process.env, ...env } },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, output: `${stdout}${stderr}` }),
    );
  });
}

/**
 * Backup and restore (docs/operations.md, "Backup and restore"): an online backup taken while the
 * platform serves, the database lost, restored with the tool of its engine; the restored platform
 * opens its secrets and signing keys with the KEK of the backup (and refuses to start with another),
 * its apps authenticate, its tokens validate, its audit chain verifies, and what happened after the
 * backup is gone, as the document says.
 */
describe.each(platformDatabases('backup and restore'))('backup and restore on $name', (database) => {
  let platform: TestPlatform;
  let drop: () => Promise<void>;
  let databaseEnv: Record<string, string>;
  let admin: string;
  const backupFile = () => join(platform.dataDir, 'backup.bin');
  const kekFile = () => join(platform.dataDir, 'secrets-kek');

  beforeAll(async () => {
    const created = await database.create();
    drop = created.drop;
    platform = await startPlatform(created.url === undefined ? {} : { databaseUrl: created.url });
    databaseEnv = created.url === undefined ? { DATA_DIR: platform.dataDir } : { DATABASE_URL: created.url };
    admin = await adminToken(await discover(platform), platform);
  });
  afterAll(async () => {
    await platform?.stop();
    await drop?.();
  });

  const me = (token: string) =>
    fetch(`${platform.baseUrl}/v1/me`, { headers: { authorization: `Bearer ${token}` } }).then(
      (r) => r.status,
    );
  const secret = (method: 'PUT' | 'GET') =>
    fetch(`${platform.baseUrl}/api/v1/tenants/acme/secrets/backup-db-password`, {
      method,
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      ...(method === 'PUT' && { body: JSON.stringify({ value: 'correct horse battery staple' }) }),
    });

  it('restores what the backup held, with its KEK only, and forgets what came after', async () => {
    const as = await discover(platform);
    const app = await registerApp(platform, admin, {
      client_id: 'backup-billing',
      declared_scopes: ['jobs.read'],
    });
    const credentials = { clientId: app.client_id, clientSecret: app.client_secret! };
    const revokedBefore = (await clientCredentialsToken(as, credentials)).access_token;
    await postForm(`${platform.baseUrl}/v1/oauth/revoke`, {
      token: revokedBefore,
      ...credentialsForm(credentials),
    });
    const kept = (await clientCredentialsToken(as, credentials)).access_token;
    expect((await secret('PUT')).status).toBe(200);
    expect(await me(revokedBefore)).toBe(401);

    // Online: the platform keeps serving while the backup is taken.
    const [backup, duringBackup] = await Promise.all([
      backupScript(['backup', backupFile()], databaseEnv),
      clientCredentialsToken(as, credentials),
    ]);
    expect(backup).toMatchObject({ code: 0, output: expect.stringContaining('the KEK is not in it') });
    expect(duringBackup.access_token).toEqual(expect.any(String));

    // After the backup: a revocation and an app the restore will not know.
    await postForm(`${platform.baseUrl}/v1/oauth/revoke`, { token: kept, ...credentialsForm(credentials) });
    await registerApp(platform, admin, { client_id: 'backup-late', declared_scopes: ['jobs.read'] });
    expect(await me(kept)).toBe(401);

    // The database is lost; a restore needs the control planes stopped.
    for (const name of PROCESSES) await platform.stopProcess(name);
    if (database.name === 'SQLite') rmSync(join(platform.dataDir, 'platform.sqlite'));
    const refused = await backupScript(['backup', backupFile()], databaseEnv);
    expect(refused).toMatchObject({ code: 2, output: expect.stringContaining('exists') });
    const restored = await backupScript(['restore', backupFile()], databaseEnv);
    expect(restored).toMatchObject({ code: 0, output: expect.stringContaining('restored') });

    // Another KEK cannot open the restored signing keys: the control plane refuses to start.
    const kek = readFileSync(kekFile());
    writeFileSync(kekFile(), randomBytes(32).toString('base64'), { mode: 0o600 });
    await expect(platform.restartProcess('control-plane')).rejects.toThrow(/exited/);
    writeFileSync(kekFile(), kek, { mode: 0o600 });
    for (const name of [...PROCESSES].reverse()) await platform.restartProcess(name);

    // What the backup held.
    expect(await me(revokedBefore)).toBe(401);
    expect((await clientCredentialsToken(as, credentials)).access_token).toEqual(expect.any(String));
    const opened = await secret('GET');
    expect(opened.status).toBe(200);
    await expect(opened.json()).resolves.toMatchObject({ value: 'correct horse battery staple' });
    const verified = await fetch(`${platform.baseUrl}/api/v1/audit/verify`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    await expect(verified.json()).resolves.toMatchObject({ valid: true, first_invalid: null });

    // What came after it is gone: the app, and the revocation (its token is good again until it
    // expires, as docs/operations.md warns).
    const late = await fetch(`${platform.baseUrl}/v1/oauth/apps/backup-late`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(late.status).toBe(404);
    expect(await me(kept)).toBe(200);
  });
});

function credentialsForm({ clientId, clientSecret }: { clientId: string; clientSecret: string }) {
  return { client_id: clientId, client_secret: clientSecret };
}
