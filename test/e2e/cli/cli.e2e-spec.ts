import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { adminToken, clientCredentialsToken, discover } from '../../support/oauth';
import { startPlatform, type TestPlatform } from '../../support/platform';

const BIN = join(__dirname, '..', '..', '..', 'apps', 'cli', 'bin', 'platform.js');

/** `platform` (the installed command) against the real platform. */
describe('the platform command line', () => {
  let platform: TestPlatform;

  const cli = (args: string[], env: Record<string, string> = {}) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
      execFile(
        process.execPath,
        [BIN, ...args],
        {
          env: {
            PATH: process.env.PATH ?? '',
            PLATFORM_URL: platform.baseUrl,
            PLATFORM_CLIENT_ID: platform.admin.clientId,
            PLATFORM_CLIENT_SECRET: platform.admin.clientSecret,
            ...env,
          },
        },
        (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
      ),
    );
  const json = async (args: string[]) => {
    const result = await cli([...args, '--json']);
    expect({ args, code: result.code, stderr: result.stderr }).toEqual({ args, code: 0, stderr: '' });
    return JSON.parse(result.stdout);
  };

  beforeAll(async () => {
    platform = await startPlatform();
  });
  afterAll(async () => platform?.stop());

  it('registers, lists, rotates and deletes an app, with JSON for scripts', async () => {
    const app = await json([
      'apps',
      'register',
      'cli-worker',
      '--name',
      'CLI worker',
      '--type',
      'service',
      '--scopes',
      'jobs.read',
    ]);
    expect(app).toMatchObject({
      client_id: 'cli-worker',
      client_secret: expect.any(String),
      declared_scopes: ['jobs.read'],
    });
    expect((await json(['apps', 'list'])).map((a: { client_id: string }) => a.client_id)).toContain(
      'cli-worker',
    );
    const rotated = await json(['apps', 'rotate', 'cli-worker']);
    expect(rotated.client_secret).not.toBe(app.client_secret);
    await expect(json(['apps', 'delete', 'cli-worker'])).resolves.toEqual({ deleted: 'cli-worker' });
    const gone = await cli(['apps', 'get', 'cli-worker']);
    expect(gone).toMatchObject({ code: 1, stdout: '' });
    expect(gone.stderr).toMatch(/^platform: 404 /);
  });

  it('prints people a table, and defines scopes', async () => {
    const defined = await cli(['scopes', 'define', 'reports.read', 'Read reports']);
    expect(defined).toMatchObject({ code: 0, stderr: '' });
    expect(defined.stdout).toMatch(/^name: reports\.read$/m);
    const listed = await cli(['scopes', 'list']);
    expect(listed.code).toBe(0);
    expect(listed.stdout.split('\n')[0]).toMatch(/^name\s+description\s+standard/);
    expect(listed.stdout).toMatch(/^reports\.read\s+Read reports\s+false/m);
  });

  it('introspects and revokes tokens, rotates keys and verifies the audit log', async () => {
    const as = await discover(platform);
    const token = (await clientCredentialsToken(as, platform.admin)).access_token;
    await expect(json(['tokens', 'introspect', token])).resolves.toMatchObject({
      active: true,
      client_id: 'admin',
    });
    await expect(json(['tokens', 'revoke', token])).resolves.toEqual({ revoked: true });
    await expect(json(['tokens', 'introspect', token])).resolves.toEqual({ active: false });
    await expect(json(['keys', 'rotate'])).resolves.toMatchObject({ kid: expect.any(String) });
    await expect(json(['audit', 'verify'])).resolves.toMatchObject({ valid: true });
    expect(await adminToken(as, platform)).toEqual(expect.any(String));
  });

  it('says what is wrong, with an exit code per kind of failure', async () => {
    const usage = await cli(['apps', 'register', 'x', '--type', 'robot']);
    expect(usage).toMatchObject({ code: 2, stdout: '' });
    expect(usage.stderr).toMatch(/--name is required|--type must be one of/);
    expect(await cli(['frobnicate'])).toMatchObject({ code: 2 });
    expect(await cli(['apps', 'list', '--limit', 'many'])).toMatchObject({ code: 2 });

    const refused = await cli(['apps', 'list'], { PLATFORM_CLIENT_SECRET: 'not-the-secret' });
    expect(refused).toMatchObject({ code: 1 });
    expect(refused.stderr).toMatch(/^platform: 401 invalid_client/);
    expect(refused.stderr).not.toContain('not-the-secret');

    const unreachable = await cli(['apps', 'list'], { PLATFORM_URL: 'http://127.0.0.1:1' });
    expect(unreachable).toMatchObject({ code: 3 });
    expect(unreachable.stderr).toMatch(/^platform: cannot reach http:\/\/127\.0\.0\.1:1/);
  });
});
