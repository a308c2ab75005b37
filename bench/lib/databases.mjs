import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { registerServiceApp } from './oauth.mjs';
import { startPlatform } from './platform.mjs';
import { onCleanup } from './processes.mjs';

const require = createRequire(import.meta.url);
const { Client } = require('pg');

export const DATABASE_NAMES = { sqlite: 'SQLite', postgres: 'Postgres' };

/** The Postgres server the bench makes its scratch databases on: the one CI tests against. */
export const POSTGRES_ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/**
 * A new empty database on POSTGRES_ADMIN_URL's server; answers its URL. It is dropped by the
 * harness's cleanup, which runs stops newest first: after whatever was started to use it.
 */
export async function scratchDatabase(purpose) {
  const name = `bench_${purpose.replace(/\W/g, '_')}_${randomBytes(4).toString('hex')}`;
  await asAdmin(`CREATE DATABASE "${name}"`);
  onCleanup(() => asAdmin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

async function asAdmin(sql) {
  const client = new Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(
      `Postgres at ${new URL(POSTGRES_ADMIN_URL).host} is unreachable (TEST_DATABASE_URL): ${error.message}`,
      { cause: error },
    );
  }
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * The platforms that a scenario comparing databases runs on: the main one first, then one per
 * other database of `--databases` and of `also`, each started the first time a scenario asks
 * and kept for the rest of the run. Answers `[{ database, platform, app }]` (`app`: a service
 * app registered there, as `ctx.app` is on the main platform).
 */
export async function platformsOn(ctx, also = []) {
  const main = ctx.platform.database;
  ctx.databasePlatforms ??= new Map([
    [main, Promise.resolve({ database: main, platform: ctx.platform, app: ctx.app })],
  ]);
  const wanted = [...new Set([main, ...ctx.options.databases, ...also])];
  for (const database of wanted) {
    if (!ctx.databasePlatforms.has(database))
      ctx.databasePlatforms.set(database, startPlatformOn(ctx, database));
  }
  return Promise.all(wanted.map((database) => ctx.databasePlatforms.get(database)));
}

async function startPlatformOn(ctx, database) {
  ctx.progress(`starting a platform on ${DATABASE_NAMES[database]}`);
  // Unset, DATABASE_URL means SQLite in the platform's own data directory.
  const databaseUrl = database === 'postgres' ? await scratchDatabase('platform') : undefined;
  const platform = await startPlatform({
    cpuProfDir: ctx.options.cpuProfDir,
    env: { DATABASE_URL: databaseUrl },
  });
  for (const { process: name, healthyMs } of platform.startup) {
    ctx.processes.push({ process: `${name} (${database})`, healthyMs });
    ctx.sampler.add(`${name} (${database})`, platform.pids[name]);
  }
  ctx.sampler.idle();
  const app = await registerServiceApp(platform, `bench-${database}-${Date.now().toString(36)}`);
  return { database, platform, app };
}

/** ` on Postgres` for a platform beside the main one, nothing for the main one's rows. */
export function besideMain(ctx, database) {
  return database === ctx.platform.database ? '' : ` on ${DATABASE_NAMES[database]}`;
}

/**
 * Rows measured on the platform on `database`: unchanged for the main platform's; for another
 * one's, each key is suffixed `-<database>` (and so is a ratio against a row among them) and
 * each row gains its ratio to the same row on the main platform.
 */
export function rowsOn(ctx, database, rows) {
  const main = ctx.platform.database;
  if (database === main) return rows;
  const keys = new Set(rows.map((row) => row.key));
  const suffixed = (key) => (keys.has(key) ? `${key}-${database}` : key);
  return rows.map((row) => ({
    ...row,
    key: suffixed(row.key),
    ratios: [
      ...(row.rps === null ? [] : [{ against: row.key, label: `the same on ${DATABASE_NAMES[main]}` }]),
      ...(row.ratios ?? []).map((ratio) => ({ ...ratio, against: suffixed(ratio.against) })),
    ],
  }));
}
