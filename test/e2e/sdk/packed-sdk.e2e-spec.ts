import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { sharedPlatform, type TestPlatform } from '../../support/platform';

const run = promisify(execFile);
const repoRoot = join(__dirname, '../../..');
const sdkRoot = join(repoRoot, 'libs/sdk');
/** A bare module specifier of `require('x')`, `from 'x'`, `import('x')` or `import 'x'`. */
const IMPORT = /(?:require\(|from |import\(|import )['"]([^'"./][^'"]*)['"]/g;
/** What a client must never pull in: the server's frameworks, its native addons, the platform's own packages. */
const SERVER_PACKAGES = /^(@nestjs\/|@platform\/|argon2$|class-validator$|class-transformer$)/;

/**
 * A program of its own, in an empty project, using @platform/sdk as a user would: installed from
 * the packed tarball (the built libs/sdk), type-checked against its declarations, and run against
 * the platform (REST and the sidecar's flag service). `npm` runs without the npm_* variables of
 * the jest run, so nothing it does reaches the repository's own project.
 */
describe('the packed @platform/sdk in a project of its own', () => {
  let platform: TestPlatform;
  let scratch: string;
  let tarball: string;
  const npm = (args: string[]) =>
    run('npm', args, { cwd: scratch, env: withoutNpmVariables(), maxBuffer: 16 * 1024 * 1024 });

  beforeAll(() => {
    platform = sharedPlatform();
    scratch = mkdtempSync(join(tmpdir(), 'packed-sdk-'));
  });
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it("packs the built SDK: declarations, the flag service's .proto and the README, no sources", async () => {
    const packed = await run('npm', ['pack', '--json', '--pack-destination', scratch], {
      cwd: sdkRoot,
      env: withoutNpmVariables(),
    });
    const [{ filename, files }] = JSON.parse(packed.stdout) as Array<{
      filename: string;
      files: Array<{ path: string }>;
    }>;
    tarball = filename;
    const shipped = files.map((file) => file.path);
    expect(shipped).toEqual(
      expect.arrayContaining([
        'dist/index.js',
        'dist/index.d.ts',
        'dist/generated/openapi.d.ts',
        'proto/platform/flags/v1/flags.proto',
        'README.md',
      ]),
    );
    expect(shipped.filter((path) => path.startsWith('src/') || path.includes('.spec.'))).toEqual([]);
  });

  it('installs into an empty project with nothing of the server, and imports only what it declares', async () => {
    writeFileSync(join(scratch, 'package.json'), JSON.stringify({ name: 'scratch', private: true }));
    await npm([
      'install',
      '--prefer-offline',
      '--ignore-scripts',
      '--no-audit',
      '--no-fund',
      `./${tarball}`,
      `@types/node@${versionOf('@types/node')}`,
    ]);
    const lock = JSON.parse(readFileSync(join(scratch, 'package-lock.json'), 'utf8')) as { packages: object };
    const installed = Object.keys(lock.packages).map((path) => path.replace(/^.*node_modules\//, ''));
    expect(installed).toContain('@platform/sdk');
    expect(installed.filter((name) => name !== '@platform/sdk' && SERVER_PACKAGES.test(name))).toEqual([]);

    // The program's check skips declaration files, as most projects do: here every module the
    // shipped code and declarations name must be a dependency the package declares.
    const sdk = join(scratch, 'node_modules/@platform/sdk');
    const { dependencies } = JSON.parse(readFileSync(join(sdk, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    const imported = new Set(
      readdirSync(join(sdk, 'dist'), { recursive: true, encoding: 'utf8' })
        .filter((file) => /\.(js|d\.ts)$/.test(file))
        .flatMap((file) => [...readFileSync(join(sdk, 'dist', file), 'utf8').matchAll(IMPORT)])
        .map(([, specifier]) =>
          specifier
            .split('/')
            .slice(0, specifier.startsWith('@') ? 2 : 1)
            .join('/'),
        ),
    );
    expect([...imported].filter((name) => !isBuiltin(name) && !(name in dependencies))).toEqual([]);
  });

  it('type-checks a program against the installed SDK, and the program runs against the platform', async () => {
    writeFileSync(join(scratch, 'main.ts'), PROGRAM);
    writeFileSync(
      join(scratch, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'commonjs',
          moduleResolution: 'node10',
          strict: true,
          skipLibCheck: true,
          types: ['node'],
          outDir: 'out',
        },
        files: ['main.ts'],
      }),
    );
    // The repository's compiler: the project resolves every module from its own node_modules.
    await run(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', scratch]);

    const clientId = `packed-sdk-${randomUUID().slice(0, 8)}`;
    const { stdout } = await run(process.execPath, [
      join(scratch, 'out/main.js'),
      platform.baseUrl,
      platform.admin.clientId,
      platform.admin.clientSecret,
      platform.sidecarAddress,
      clientId,
    ]);
    expect(JSON.parse(stdout)).toEqual({
      me: expect.objectContaining({ sub: clientId, client_id: clientId, scope: 'flags.read' }),
      flag: expect.objectContaining({ value: true, reason: 'ERROR', errorCode: 'FLAG_NOT_FOUND' }),
      afterDeletion: 'invalid_client',
    });
  });
});

/** A program as a user of the SDK writes it; the @ts-expect-error fails the check if the wire types were lost. */
const PROGRAM = `
import {
  AdminClient,
  OAuthProtocolError,
  PlatformClient,
  PlatformFlagProvider,
  ServiceTokenSource,
  type Me,
  type RegisterAppRequest,
} from '@platform/sdk';

async function main(): Promise<void> {
  const [baseUrl, adminId, adminSecret, sidecarAddress, clientId] = process.argv.slice(2);
  const admin = AdminClient.withCredentials({ baseUrl, clientId: adminId, clientSecret: adminSecret });
  const registration: RegisterAppRequest = {
    client_id: clientId,
    name: 'Packed SDK',
    declared_scopes: ['flags.read'],
    app_type: 'service',
  };
  // @ts-expect-error: not an app type of the API document
  const wrong: RegisterAppRequest = { ...registration, app_type: 'robot' };
  void wrong;
  const app = await admin.registerApp(registration);

  const tokens = new ServiceTokenSource({ baseUrl, clientId, clientSecret: app.client_secret! });
  const me: Me = await new PlatformClient({ baseUrl, tokens }).me();

  const provider = new PlatformFlagProvider({ sidecarAddress, tokens, tenant: clientId });
  const flag = await provider.resolveBooleanEvaluation('no-such-flag', true, {});
  await provider.onClose();

  await admin.deleteApp(clientId);
  tokens.invalidate();
  const afterDeletion = await tokens.getToken().then(
    () => 'a token',
    (error: unknown) => (error instanceof OAuthProtocolError ? error.error : String(error)),
  );
  console.log(JSON.stringify({ me, flag, afterDeletion }));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
`;

/** The version the repository installed, so the scratch install finds it in npm's cache. */
function versionOf(name: string): string {
  return (JSON.parse(readFileSync(require.resolve(`${name}/package.json`), 'utf8')) as { version: string })
    .version;
}

function withoutNpmVariables(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
}
