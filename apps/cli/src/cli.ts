import { parseArgs } from 'node:util';
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
  tokens introspect <token>          tokens revoke <token>
  audit verify [--from <n>] [--through <n>]

options:
  --url <base url>        the backend (default $PLATFORM_URL, else http://localhost:3000)
  --client-id <id>        an app declaring admin.* (default $PLATFORM_CLIENT_ID, else admin)
  --client-secret <s>     its secret (default $PLATFORM_CLIENT_SECRET)
  --json                  print the platform's answer as JSON, for scripts
  -h, --help
`;

class UsageError extends Error {}

/** Runs one command; answers the exit code. Output goes to stdout, errors to stderr. */
export async function run(argv: string[], env: NodeJS.ProcessEnv, out = console): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        url: { type: 'string' },
        'client-id': { type: 'string' },
        'client-secret': { type: 'string' },
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
  const clientSecret = values['client-secret'] ?? env.PLATFORM_CLIENT_SECRET;
  if (!clientSecret) {
    out.error('platform: no credentials: set PLATFORM_CLIENT_SECRET or pass --client-secret');
    return EXIT.usage;
  }
  const credentials = {
    baseUrl: values.url ?? env.PLATFORM_URL ?? 'http://localhost:3000',
    clientId: values['client-id'] ?? env.PLATFORM_CLIENT_ID ?? 'admin',
    clientSecret,
  };
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
    'tokens introspect': () => new OAuthClient(credentials).introspect(required(positionals[2], 'token')),
    'tokens revoke': async () => {
      await new OAuthClient(credentials).revoke(required(positionals[2], 'token'));
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
