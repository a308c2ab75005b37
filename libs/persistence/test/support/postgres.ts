import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { DataSource, type QueryRunner } from 'typeorm';
import { MIGRATIONS, openDataSource } from '../../src';

/**
 * Postgres for the contract suite: migrate once into a template database (named after the
 * migrations, so a changed migration gets a fresh one), then each test file copies it.
 */
export const POSTGRES_ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Serializes template building across parallel jest workers. */
const TEMPLATE_LOCK_KEY = 73_310_001;
const TEMPLATE_PREFIX = 'persistence_tmpl_';

/** Synchronous, because jest registers tests synchronously and drivers are chosen then. */
export function postgresReachable(): boolean {
  const probe = `
    const { Client } = require(${JSON.stringify(require.resolve('pg'))});
    const client = new Client({ connectionString: process.env.PROBE_URL, connectionTimeoutMillis: 3000 });
    client.connect().then(() => client.query('SELECT 1')).then(() => client.end())
      .then(() => process.exit(0), () => process.exit(1));`;
  try {
    execFileSync(process.execPath, ['-e', probe], {
      env: { ...process.env, PROBE_URL: POSTGRES_ADMIN_URL },
      stdio: 'ignore',
      timeout: 10_000,
    });
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether a Postgres suite runs: yes when Postgres answers; under CI=true an unreachable
 * Postgres throws (CI must run it); elsewhere a loud warning, and the caller registers nothing,
 * so no skipped test is ever counted as passed.
 */
export function postgresSuiteEnabled(what: string): boolean {
  if (postgresReachable()) return true;
  const where = new URL(POSTGRES_ADMIN_URL).host;
  if (process.env.CI === 'true') throw new Error(`Postgres at ${where} is unreachable; CI must run ${what}`);
  console.warn(
    `\n!!! Postgres at ${where} is unreachable: ${what} is SKIPPED.\n` +
      '!!! Set TEST_DATABASE_URL or start Postgres to run it.\n',
  );
  return false;
}

export interface ScratchDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A freshly migrated database of its own, copied from the template. */
export async function createScratchDatabase(): Promise<ScratchDatabase> {
  const name = `persistence_test_${randomBytes(6).toString('hex')}`;
  await withAdmin(async (runner) => {
    await runner.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK_KEY]);
    try {
      const template = await ensureTemplate(runner);
      await runner.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
    } finally {
      await runner.query('SELECT pg_advisory_unlock($1)', [TEMPLATE_LOCK_KEY]);
    }
  });
  return {
    url: databaseUrl(name),
    drop: () => withAdmin((runner) => runner.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)),
  };
}

/**
 * A linguistic default collation (ICU's en-US, as an en_US.UTF-8 cluster has), not the server's
 * C: SQLite compares text by code point, so only a collation that does not lets the suites see
 * an ORDER BY or a `>` on text that the two databases answer differently.
 */
const LINGUISTIC_COLLATION = "TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE 'en-US' LOCALE 'C.UTF-8'";

async function ensureTemplate(runner: QueryRunner): Promise<string> {
  const template = TEMPLATE_PREFIX + migrationsFingerprint();
  const existing: unknown[] = await runner.query('SELECT 1 FROM pg_database WHERE datname = $1', [template]);
  if (existing.length > 0) return template;

  // Build under a scratch name and rename, so a failed migration never leaves a bad template.
  const building = `${template}_building`;
  await runner.query(`DROP DATABASE IF EXISTS "${building}" WITH (FORCE)`);
  await runner.query(`CREATE DATABASE "${building}" ${LINGUISTIC_COLLATION}`);
  const migrated = await openDataSource(databaseUrl(building));
  await migrated.destroy();
  await runner.query(`ALTER DATABASE "${building}" RENAME TO "${template}"`);
  await dropStaleTemplates(runner, template);
  return template;
}

async function dropStaleTemplates(runner: QueryRunner, current: string): Promise<void> {
  const rows: Array<{ datname: string }> = await runner.query(
    'SELECT datname FROM pg_database WHERE datname LIKE $1 AND datname <> $2',
    [`${TEMPLATE_PREFIX}%`, current],
  );
  for (const { datname } of rows) await runner.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
}

function migrationsFingerprint(): string {
  const source = [
    LINGUISTIC_COLLATION,
    ...MIGRATIONS.map((migration) => migration.name + migration.prototype.up.toString()),
  ].join('\n');
  return createHash('sha256').update(source).digest('hex').slice(0, 12);
}

function databaseUrl(database: string): string {
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${database}`;
  return url.toString();
}

async function withAdmin<T>(work: (runner: QueryRunner) => Promise<T>): Promise<T> {
  const admin = await new DataSource({ type: 'postgres', url: POSTGRES_ADMIN_URL }).initialize();
  const runner = admin.createQueryRunner();
  try {
    return await work(runner);
  } finally {
    await runner.release();
    await admin.destroy();
  }
}
