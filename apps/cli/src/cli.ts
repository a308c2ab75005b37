import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { isLoopbackAddress } from '@platform/config';
import { APP_TYPES, type AppType } from '@platform/domain';
import {
  AdminClient,
  AuditClient,
  OAuthClient,
  OAuthProtocolError,
  PlatformError,
  ProblemError,
} from '@platform/sdk';

/** Exit codes: 0 done, 1 refused by the platform, 2 bad usage, 3 platform unreachable. */
export const EXIT = { ok: 0, refused: 1, usage: 2, unreachable: 3 } as const;

const USAGE = `usage: platform <command> [options]

  apps register <client_id> --name <name> --type <service|web|spa|cli> --scopes <a,b> [--redirect-uri <uri>]...
  apps list [--limit <n>]            apps get <client_id>
  apps rotate <client_id>            apps delete <client_id>
  scopes list                        scopes define <name> <description>
  keys rotate
  tokens introspect [-]              tokens revoke [-]
  audit verify [--from <n>] [--through <n>]
  login [--scopes <a,b>] [--token-file <f>]
                                     sign in as yourself through a cli app (device flow, RFC 8628):
                                     open the address shown, enter the code; --client-id names the
                                     app, its secret as below when it has one

options:
  --url <base url>            the backend (default $PLATFORM_URL, else http://localhost:3000);
                              https://, or http:// to this machine only
  --client-id <id>            an app declaring admin.* (default $PLATFORM_CLIENT_ID, else admin)
  --client-secret-file <f>    a file holding its secret, - for stdin (default $PLATFORM_CLIENT_SECRET)
  --token-file <f>            for tokens introspect|revoke: a file holding the token
                              (- or "tokens introspect -" for stdin; default $PLATFORM_TOKEN);
                              for login: where to write the access token (mode 600) instead of
                              printing the token answer
  --json                      print the platform's answer as JSON, for scripts
  -h, --help

Secrets never go on the command line, where every user of the machine sees them (ps) and the
shell keeps them in its history.
`;

class UsageError extends Error {}

/** Runs one command; answers the exit code. Output goes to stdout, errors to stderr. */
export async function run(argv: string[], env: NodeJS.ProcessEnv, out = console): Promise<number> {
  // Before parsing: a secret that starts with a dash would make parseArgs fail with its own
  // message instead of saying what to do.
  if (argv.some((arg) => arg === '--client-secret' || arg.startsWith('--client-secret='))) {
    out.error(`platform: ${REFUSED_SECRET_ARGUMENT}`);
    return EXIT.usage;
  }
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        url: { type: 'string' },
        'client-id': { type: 'string' },
        'client-secret-file': { type: 'string' },
        'token-file': { type: 'string' },
        json: { type: 'boolean', default: false },
        name: { type: 'string' },
        type: { type: 'string' },
        scopes: { type: 'string' },
        'redirect-uri': { type: 'string', multiple: true },
        limit: { type: 'string' },
        from: { type: 'string' },
        through: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    out.error(`platform: ${(error as Error).message}\n\n${USAGE}`);
    return EXIT.usage;
  }
  const { values, positionals } = parsed;
  if (values.help || positionals.length === 0) {
    (values.help ? out.log : out.error)(USAGE);
    return values.help ? EXIT.ok : EXIT.usage;
  }
  const baseUrl = values.url ?? env.PLATFORM_URL ?? DEFAULT_URL;
  if (positionals[0] === 'login') return login(values, baseUrl, env, out);
  let credentials;
  try {
    const tokenOnStdin = positionals[0] === 'tokens' && (positionals[2] ?? values['token-file']) === STDIN;
    if (values['client-secret-file'] === STDIN && tokenOnStdin) {
      throw new UsageError(
        'stdin carries either the client secret or the token, not both: use a file for one',
      );
    }
    credentials = {
      baseUrl: platformUrl(baseUrl),
      clientId: values['client-id'] ?? env.PLATFORM_CLIENT_ID ?? 'admin',
      clientSecret: clientSecret(values['client-secret-file'], env),
    };
  } catch (error) {
    return failure(error, baseUrl, out);
  }
  const token = () => tokenArgument(positionals[2], values['token-file'], env);
  const admin = AdminClient.withCredentials(credentials);
  const commands = {
    'apps register': () =>
      admin.registerApp({
        client_id: required(positionals[2], 'client_id'),
        name: required(values.name, '--name'),
        app_type: appType(values.type),
        declared_scopes: required(values.scopes, '--scopes').split(','),
        ...(values['redirect-uri'] && { redirect_uris: values['redirect-uri'] }),
      }),
    'apps list': async () => (await admin.listApps({ limit: count(values.limit, '--limit') })).apps,
    'apps get': () => admin.getApp(required(positionals[2], 'client_id')),
    'apps rotate': () => admin.rotateSecret(required(positionals[2], 'client_id')),
    'apps delete': async () => {
      await admin.deleteApp(required(positionals[2], 'client_id'));
      return { deleted: positionals[2] };
    },
    'scopes list': () => admin.listScopes(),
    'scopes define': () =>
      admin.defineScope(required(positionals[2], 'name'), required(positionals[3], 'description')),
    'keys rotate': () => admin.client.json('/api/v1/keys/rotate', { method: 'POST' }),
    'tokens introspect': () => new OAuthClient(credentials).introspect(token()),
    'tokens revoke': async () => {
      await new OAuthClient(credentials).revoke(token());
      return { revoked: true };
    },
    'audit verify': () =>
      new AuditClient(admin.client).verify({
        from: count(values.from, '--from'),
        through: count(values.through, '--through'),
      }),
  } as Record<string, () => Promise<unknown>>;
  const command = commands[positionals.slice(0, 2).join(' ')];
  if (command === undefined) {
    out.error(`platform: unknown command "${positionals.slice(0, 2).join(' ')}"\n\n${USAGE}`);
    return EXIT.usage;
  }
  try {
    const answer = await command();
    out.log(values.json ? JSON.stringify(answer, null, 2) : human(answer));
    return answerCode(answer);
  } catch (error) {
    return failure(error, credentials.baseUrl, out);
  }
}

const DEFAULT_URL = 'http://localhost:3000';
const STDIN = '-';

const REFUSED_SECRET_ARGUMENT =
  '--client-secret is refused: a secret on the command line is visible to every user of this machine ' +
  '(ps) and kept in shell history. Set PLATFORM_CLIENT_SECRET, or pass --client-secret-file <file> ' +
  '(--client-secret-file - reads it from stdin)';

/** The app's secret: `--client-secret-file` (a file, or `-` for stdin), else $PLATFORM_CLIENT_SECRET. */
function clientSecret(file: string | undefined, env: NodeJS.ProcessEnv): string {
  if (file !== undefined) return readSecret(file, 'the client secret');
  if (env.PLATFORM_CLIENT_SECRET) return env.PLATFORM_CLIENT_SECRET;
  throw new UsageError(
    'no credentials: set PLATFORM_CLIENT_SECRET, or pass --client-secret-file <file> (- for stdin)',
  );
}

/**
 * The token of `tokens introspect|revoke`: `-` (stdin) or `--token-file`, else $PLATFORM_TOKEN.
 * A token itself as the argument is refused, as a secret is.
 */
function tokenArgument(
  argument: string | undefined,
  file: string | undefined,
  env: NodeJS.ProcessEnv,
): string {
  if (argument !== undefined && argument !== STDIN) {
    throw new UsageError(
      'a token on the command line is refused: every user of this machine sees it (ps) and shell ' +
        'history keeps it. Pass it on stdin ("tokens introspect -"), with --token-file <file>, or in PLATFORM_TOKEN',
    );
  }
  const source = argument ?? file;
  if (source !== undefined) return readSecret(source, 'the token');
  if (env.PLATFORM_TOKEN) return env.PLATFORM_TOKEN;
  throw new UsageError('the token is required: "-" for stdin, --token-file <file>, or PLATFORM_TOKEN');
}

/** A secret from a file or stdin (`-`), without its surrounding whitespace (a trailing newline). */
function readSecret(source: string, what: string): string {
  const from = source === STDIN ? 'stdin' : source;
  let content: string;
  try {
    content = readFileSync(source === STDIN ? 0 : source, 'utf8');
  } catch (error) {
    throw new UsageError(
      `cannot read ${what} from ${from} (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
  const secret = content.trim();
  if (secret === '') throw new UsageError(`${what} read from ${from} is empty`);
  return secret;
}

/**
 * The backend's URL: https, or plain http to this machine only (localhost, 127.0.0.0/8, [::1]):
 * elsewhere the client secret and the tokens would cross the network in the clear.
 */
function platformUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError('--url (or PLATFORM_URL) is not a URL');
  }
  if (url.protocol === 'https:') return value;
  if (url.protocol !== 'http:') throw new UsageError(`--url must be https:// (not ${url.protocol})`);
  if (isLoopbackAddress(url.host)) return value;
  throw new UsageError(
    `refusing ${url.origin}: plain http to another machine would send the client secret and tokens ` +
      'in the clear. Use https:// (http:// is for localhost, 127.0.0.1 or [::1] only)',
  );
}

/**
 * `platform login`: the device flow (RFC 8628) for a `cli` app. The address and the code go to
 * stderr (stdout stays the answer, for scripts); the token answer is printed, or with
 * `--token-file` the access token alone is written there (mode 600), as `tokens introspect`
 * reads it.
 */
async function login(
  values: {
    'client-id'?: string;
    'client-secret-file'?: string;
    'token-file'?: string;
    scopes?: string;
    json?: boolean;
  },
  baseUrl: string,
  env: NodeJS.ProcessEnv,
  out: Pick<Console, 'log' | 'error'>,
): Promise<number> {
  let client: OAuthClient;
  try {
    const clientId = values['client-id'] ?? env.PLATFORM_CLIENT_ID;
    if (clientId === undefined || clientId === '') {
      throw new UsageError('login needs the client_id of a cli app: --client-id <id> or PLATFORM_CLIENT_ID');
    }
    const secretFile = values['client-secret-file'];
    const clientSecret =
      secretFile !== undefined
        ? readSecret(secretFile, 'the client secret')
        : env.PLATFORM_CLIENT_SECRET || undefined;
    client = new OAuthClient({
      baseUrl: platformUrl(baseUrl),
      clientId,
      ...(clientSecret !== undefined && { clientSecret }),
    });
  } catch (error) {
    return failure(error, baseUrl, out);
  }
  try {
    const device = await client.deviceAuthorization(
      values.scopes === undefined ? {} : { scope: values.scopes.split(',').join(' ') },
    );
    out.error(
      `To sign in, open ${device.verification_uri} and enter the code ${device.user_code}\n` +
        `(or open ${device.verification_uri_complete}). The code expires in ${Math.round(device.expires_in / 60)} minutes.`,
    );
    const tokens = await client.pollDeviceToken(device);
    const tokenFile = values['token-file'];
    if (tokenFile !== undefined && tokenFile !== STDIN) {
      writeFileSync(tokenFile, `${tokens.access_token}\n`, { mode: 0o600 });
      const saved = { token_file: tokenFile, scope: tokens.scope, expires_in: tokens.expires_in };
      out.log(values.json ? JSON.stringify(saved, null, 2) : human(saved));
    } else {
      out.log(values.json ? JSON.stringify(tokens, null, 2) : human(tokens));
    }
    out.error('Signed in.');
    return EXIT.ok;
  } catch (error) {
    return failure(error, baseUrl, out);
  }
}

/** `audit verify` of a broken chain is a failure too, for scripts that check it. */
function answerCode(answer: unknown): number {
  return (answer as { valid?: unknown } | null)?.valid === false ? EXIT.refused : EXIT.ok;
}

function failure(error: unknown, baseUrl: string, out: Pick<Console, 'error'>): number {
  if (error instanceof UsageError) {
    out.error(`platform: ${error.message}\n\n${USAGE}`);
    return EXIT.usage;
  }
  if (error instanceof OAuthProtocolError) {
    out.error(
      `platform: ${error.status} ${error.error}${error.error_description ? `: ${error.error_description}` : ''}`,
    );
    return EXIT.refused;
  }
  if (error instanceof ProblemError || error instanceof PlatformError) {
    out.error(`platform: ${error.status} ${error.message}`);
    return EXIT.refused;
  }
  out.error(`platform: cannot reach ${baseUrl}: ${(error as Error).message}`);
  return EXIT.unreachable;
}

function required(value: string | undefined, what: string): string {
  if (value === undefined || value === '') throw new UsageError(`${what} is required`);
  return value;
}

function appType(value: string | undefined): AppType {
  const type = required(value, '--type');
  if (!(APP_TYPES as readonly string[]).includes(type))
    throw new UsageError(`--type must be one of ${APP_TYPES.join(', ')}`);
  return type as AppType;
}

function count(value: string | undefined, what: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new UsageError(`${what} must be a whole number`);
  return Number(value);
}

/** Readable output: a table of rows for lists, `key: value` lines for one object. */
function human(answer: unknown): string {
  if (Array.isArray(answer)) {
    if (answer.length === 0) return '(none)';
    const keys = Object.keys(answer[0] as object).filter(
      (k) => typeof (answer[0] as Record<string, unknown>)[k] !== 'object',
    );
    const rows = answer.map((row) => keys.map((k) => String((row as Record<string, unknown>)[k] ?? '')));
    const widths = keys.map((k, i) => Math.max(k.length, ...rows.map((r) => r[i].length)));
    const line = (cells: string[]) =>
      cells
        .map((c, i) => c.padEnd(widths[i]))
        .join('  ')
        .trimEnd();
    return [line(keys), ...rows.map(line)].join('\n');
  }
  if (answer !== null && typeof answer === 'object') {
    return Object.entries(answer)
      .map(([k, v]) => `${k}: ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`)
      .join('\n');
  }
  return String(answer);
}
