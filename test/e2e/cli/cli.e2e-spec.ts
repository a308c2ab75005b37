import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { adminToken, clientCredentialsToken, discover } from '../../support/oauth';
import { startPlatform, type TestPlatform } from '../../support/platform';

const BIN = join(__dirname, '..', '..', '..', 'apps', 'cli', 'bin', 'platform.js');

/** `platform` (the installed command) against the real platform. */
describe('the platform command line', () => {
  let platform: TestPlatform;

  /** Runs the command; `stdin` is written to it (and closed) when given. */
  const cli = (args: string[], env: Record<string, string> = {}, stdin?: string) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      const child = execFile(
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
      );
      child.stdin?.end(stdin ?? '');
    });
  const json = async (args: string[], stdin?: string, env: Record<string, string> = {}) => {
    const result = await cli([...args, '--json'], env, stdin);
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
    await expect(json(['tokens', 'introspect', '-'], `${token}\n`)).resolves.toMatchObject({
      active: true,
      client_id: 'admin',
    });
    await expect(json(['tokens', 'revoke'], undefined, { PLATFORM_TOKEN: token })).resolves.toEqual({
      revoked: true,
    });
    await expect(json(['tokens', 'introspect', '-'], token)).resolves.toEqual({ active: false });
    await expect(json(['keys', 'rotate'])).resolves.toMatchObject({ kid: expect.any(String) });
    await expect(json(['audit', 'verify'])).resolves.toMatchObject({ valid: true });
    expect(await adminToken(as, platform)).toEqual(expect.any(String));
  });

  it('takes no secret on the command line: the environment, a file or stdin instead', async () => {
    const withSecret = await cli(['apps', 'list', '--client-secret', platform.admin.clientSecret]);
    expect(withSecret).toMatchObject({ code: 2, stdout: '' });
    expect(withSecret.stderr).toMatch(
      /^platform: --client-secret is refused: .*PLATFORM_CLIENT_SECRET.*--client-secret-file/,
    );
    expect(withSecret.stderr).not.toContain(platform.admin.clientSecret);

    const as = await discover(platform);
    const token = (await clientCredentialsToken(as, platform.admin)).access_token;
    for (const command of ['introspect', 'revoke']) {
      const withToken = await cli(['tokens', command, token]);
      expect({ command, ...withToken }).toMatchObject({ command, code: 2, stdout: '' });
      expect(withToken.stderr).toMatch(
        /^platform: a token on the command line is refused: .*tokens introspect -/,
      );
      expect(withToken.stderr).not.toContain(token);
    }

    const dir = mkdtempSync(join(tmpdir(), 'cli-secret-'));
    try {
      const file = join(dir, 'secret');
      writeFileSync(file, `${platform.admin.clientSecret}\n`, { mode: 0o600 });
      const noEnvSecret = { PLATFORM_CLIENT_SECRET: '' };
      const fromFile = await cli(['apps', 'list', '--client-secret-file', file, '--json'], noEnvSecret);
      expect(fromFile).toMatchObject({ code: 0, stderr: '' });
      const fromStdin = await cli(
        ['apps', 'list', '--client-secret-file', '-', '--json'],
        noEnvSecret,
        platform.admin.clientSecret,
      );
      expect(fromStdin).toMatchObject({ code: 0, stderr: '' });
      const tokenFile = join(dir, 'token');
      writeFileSync(tokenFile, token, { mode: 0o600 });
      await expect(json(['tokens', 'introspect', '--token-file', tokenFile])).resolves.toMatchObject({
        active: true,
      });
      const missing = await cli(['apps', 'list', '--client-secret-file', join(dir, 'none')], noEnvSecret);
      expect(missing).toMatchObject({ code: 2 });
      expect(missing.stderr).toMatch(/^platform: cannot read the client secret from .*none \(ENOENT\)/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses plain http to another machine (every other test speaks it to 127.0.0.1)', async () => {
    for (const url of ['http://auth.example.com', 'http://10.0.0.8:3000', 'http://localhost.example.com']) {
      const remote = await cli(['apps', 'list'], { PLATFORM_URL: url });
      expect({ url, ...remote }).toMatchObject({ url, code: 2, stdout: '' });
      expect(remote.stderr).toMatch(
        /^platform: refusing http:\/\/\S+: plain http to another machine .*https:\/\//,
      );
    }
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
