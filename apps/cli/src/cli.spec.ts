import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXIT, run } from './cli';

/** Runs the command line with its output captured; nothing here reaches a platform. */
async function cli(argv: string[], env: NodeJS.ProcessEnv = { PLATFORM_CLIENT_SECRET: 'env-secret' }) {
  const out = { log: jest.fn(), error: jest.fn() };
  const code = await run(argv, env, out as unknown as Console);
  return { code, stderr: out.error.mock.calls.map((call) => String(call[0])).join('\n') };
}

describe('platform (secrets and URLs)', () => {
  it.each([
    ['a secret starting with a dash', ['apps', 'list', '--client-secret', '-starts-with-a-dash']],
    ['the = form', ['apps', 'list', '--client-secret=argv-secret-value']],
  ])('refuses --client-secret given %s the same way', async (_, argv) => {
    const { code, stderr } = await cli(argv);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^platform: --client-secret is refused.*PLATFORM_CLIENT_SECRET/);
    expect(stderr).not.toMatch(/starts-with-a-dash|argv-secret-value/);
  });

  it('refuses --client-secret on the command line, saying how to pass it, without echoing it', async () => {
    const { code, stderr } = await cli(['apps', 'list', '--client-secret', 'argv-secret-value']);
    expect(code).toBe(EXIT.usage);
    expect(stderr).toMatch(/--client-secret is refused.*PLATFORM_CLIENT_SECRET.*--client-secret-file <file>/);
    expect(stderr).not.toContain('argv-secret-value');
  });

  it.each(['introspect', 'revoke'])('refuses a token as the argument of tokens %s', async (command) => {
    const { code, stderr } = await cli([
      'tokens',
      command,
      'eyJ.a-token.value',
      '--url',
      'http://127.0.0.1:1',
    ]);
    expect(code).toBe(EXIT.usage);
    expect(stderr).toMatch(
      /a token on the command line is refused.*"tokens introspect -".*--token-file.*PLATFORM_TOKEN/,
    );
    expect(stderr).not.toContain('eyJ.a-token.value');
  });

  it('asks for credentials from the environment, a file or stdin when there are none', async () => {
    const { code, stderr } = await cli(['apps', 'list'], {});
    expect(code).toBe(EXIT.usage);
    expect(stderr).toMatch(/no credentials: set PLATFORM_CLIENT_SECRET, or pass --client-secret-file/);
  });

  it('reads the secret from a file, and says which file it could not read or found empty', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-spec-'));
    try {
      const empty = join(dir, 'empty');
      writeFileSync(empty, '\n');
      expect((await cli(['apps', 'list', '--client-secret-file', empty], {})).stderr).toMatch(
        /the client secret read from .*empty is empty/,
      );
      const missing = await cli(['apps', 'list', '--client-secret-file', join(dir, 'none')], {});
      expect(missing).toEqual({ code: EXIT.usage, stderr: expect.stringMatching(/\(ENOENT\)/) });
      const file = join(dir, 'secret');
      writeFileSync(file, 'file-secret\n');
      // Read and accepted: the command goes on to the (unreachable) platform.
      const read = await cli(
        ['apps', 'list', '--client-secret-file', file, '--url', 'http://127.0.0.1:1'],
        {},
      );
      expect(read.code).toBe(EXIT.unreachable);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses stdin for both the secret and the token', async () => {
    for (const token of [['-'], ['--token-file', '-']]) {
      const { code, stderr } = await cli(['tokens', 'introspect', ...token, '--client-secret-file', '-'], {});
      expect(code).toBe(EXIT.usage);
      expect(stderr).toMatch(/stdin carries either the client secret or the token, not both/);
    }
  });

  it.each([
    'http://auth.example.com',
    'http://10.1.2.3:3000',
    'http://localhost.evil.example',
    'ftp://127.0.0.1',
  ])('refuses %s', async (url) => {
    const { code, stderr } = await cli(['apps', 'list', '--url', url]);
    expect(code).toBe(EXIT.usage);
    expect(stderr).toMatch(
      /^platform: (refusing http:\/\/\S+: plain http to another machine|--url must be https)/,
    );
  });

  it.each(['http://localhost:1', 'http://127.0.0.2:1', 'http://[::1]:1', 'http://127.1:1'])(
    'speaks plain http to this machine: %s',
    async (url) => {
      expect((await cli(['apps', 'list', '--url', url])).code).toBe(EXIT.unreachable);
    },
  );
});

describe('platform login', () => {
  it('needs the client_id of a cli app', async () => {
    const { code, stderr } = await cli(['login', '--url', 'http://127.0.0.1:1'], {});
    expect(code).toBe(EXIT.usage);
    expect(stderr).toMatch(/login needs the client_id of a cli app: --client-id <id> or PLATFORM_CLIENT_ID/);
  });

  it('refuses plain http to another machine before sending anything', async () => {
    const { code, stderr } = await cli(
      ['login', '--client-id', 'ops-cli', '--url', 'http://auth.example.com'],
      {},
    );
    expect(code).toBe(EXIT.usage);
    expect(stderr).toMatch(/refusing http:\/\/auth\.example\.com/);
  });

  it('says the platform cannot be reached', async () => {
    const { code, stderr } = await cli(
      ['login', '--client-id', 'ops-cli', '--url', 'http://127.0.0.1:1'],
      {},
    );
    expect(code).toBe(EXIT.unreachable);
    expect(stderr).toMatch(/cannot reach http:\/\/127\.0\.0\.1:1/);
  });
});
