import { parseArgs } from 'node:util';

/** The databases a platform of the bench runs on (`--databases`). */
export const DATABASES = ['sqlite', 'postgres'];

/** Every scenario, in the order they run. */
export const SCENARIOS = [
  'limit',
  'issuance',
  'exchange',
  'private-key-jwt',
  'saml-bearer',
  'saml-login',
  'protected',
  'grpc-validate',
  'introspection',
  'revocation',
  'audit',
  'webhooks',
  'scim',
  'masking',
  'grpc-floor',
  'rate-limit',
  'flags',
  'quotas',
  'secrets',
  'jobs',
  'many-tokens',
  'tracing',
  'argon2-flood',
];

const USAGE = `usage: node bench/run.mjs [options]   (npm run bench -- [options])

  --quick               short run (2 s warm-up, 5 s per load); full run: 5 s + 15 s
  --duration <s>        seconds measured per load (overrides --quick's)
  --warmup <s>          seconds of warm-up before each load (0: none; an HTTP load still answers one request first)
  --connections <n>     HTTP connections and in-flight gRPC calls of every load (default 64)
  --only <a,b,...>      run only these scenarios: ${SCENARIOS.join(', ')}
  --revocations <n>     revocations timed by the propagation scenario (default 100)
  --tokens <n>          distinct tokens of the many-tokens scenario (default 100000; --quick 20000)
  --databases <a,b>     also run issuance, audit, webhooks and jobs on a platform on each of these
                        (${DATABASES.join(', ')}) beside the main one (SQLite; DATABASE_URL's when
                        set): those rows again, keys suffixed -<database>; Postgres on a scratch
                        database at TEST_DATABASE_URL's server (jobs always runs on Postgres too)
  --json-out <file>     write the JSON result there only (no bench/results/ files)
  --cpu-prof <dir>      profile the platform and the peer (V8 CPU profiles into <dir>;
                        summarize with node bench/profile-summary.mjs <dir>)
  -h, --help
`;

/** The harness's command line, validated. Exits with the usage on a bad flag. */
export function readOptions(argv = process.argv.slice(2)) {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        quick: { type: 'boolean', default: false },
        duration: { type: 'string' },
        warmup: { type: 'string' },
        connections: { type: 'string' },
        only: { type: 'string' },
        revocations: { type: 'string' },
        tokens: { type: 'string' },
        databases: { type: 'string' },
        'json-out': { type: 'string' },
        'cpu-prof': { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
    }));
  } catch (error) {
    fail(error.message);
  }
  if (values.help) {
    process.stdout.write(USAGE);
    process.exit(0);
  }
  const only = values.only ? values.only.split(',').map((s) => s.trim()) : SCENARIOS;
  const unknown = only.filter((s) => !SCENARIOS.includes(s));
  if (unknown.length > 0) fail(`unknown scenario: ${unknown.join(', ')}`);
  const databases = values.databases ? values.databases.split(',').map((s) => s.trim()) : [];
  const unknownDatabases = databases.filter((d) => !DATABASES.includes(d));
  if (unknownDatabases.length > 0) fail(`unknown database: ${unknownDatabases.join(', ')}`);
  const duration = positive('duration', values.duration, values.quick ? 5 : 15);
  return {
    quick: values.quick,
    duration,
    warmup: count('warmup', values.warmup, Math.min(values.quick ? 2 : 5, duration)),
    connections: positive('connections', values.connections, 64),
    scenarios: SCENARIOS.filter((s) => only.includes(s)),
    revocations: positive('revocations', values.revocations, 100),
    tokens: positive('tokens', values.tokens, values.quick ? 20_000 : 100_000),
    databases,
    jsonOut: values['json-out'],
    cpuProfDir: values['cpu-prof'],
  };
}

function positive(name, raw, fallback) {
  const value = count(name, raw, fallback);
  if (value === 0) fail(`--${name} must be a positive integer`);
  return value;
}

/** A whole number, zero allowed (`--warmup 0`: measure from the first request). */
function count(name, raw, fallback) {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) fail(`--${name} must be a whole number`);
  return value;
}

function fail(message) {
  process.stderr.write(`${message}\n\n${USAGE}`);
  process.exit(2);
}
