import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { DataSource, DataSourceOptions } from 'typeorm';
import { connectionLockFor } from './connection-lock';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';

const SQLITE_PREFIX = 'sqlite:';
const SQLITE_MEMORY = ':memory:';
const SQLITE_BUSY_TIMEOUT_MS = 5_000;
const SQLITE_OPTIMIZE_MS = 6 * 60 * 60_000;

/** The slice of a better-sqlite3 handle we touch (its types are not installed). */
interface SqliteHandle {
  pragma(source: string): unknown;
}

export class DatabaseUrlError extends Error {
  override readonly name = 'DatabaseUrlError';
}

/**
 * A DataSource for `sqlite:<path>` (better-sqlite3; `sqlite::memory:` for tests) or
 * `postgres://...` (pg pool). Never synchronizes: migrations run when it initializes.
 */
export function createDataSource(databaseUrl: string): DataSource {
  return new DataSource(dataSourceOptions(databaseUrl));
}

/** Creates, connects and migrates; on SQLite, also keeps the planner's statistics current. */
export async function openDataSource(databaseUrl: string): Promise<DataSource> {
  const dataSource = await createDataSource(databaseUrl).initialize();
  if (dataSource.options.type === 'better-sqlite3') await keepPlannerStatistics(dataSource);
  return dataSource;
}

/**
 * SQLite's pattern for a long-lived connection (sqlite.org/lang_analyze.html): `optimize=0x10002`
 * once open, then `optimize` every few hours, so the planner chooses between indexes knowing the
 * tables' real shape (Postgres's autovacuum does this on its own). Each run analyzes only the
 * tables that changed enough, under a row limit SQLite sets itself; it goes through the
 * connection lock so as never to join a transaction in flight.
 */
async function keepPlannerStatistics(dataSource: DataSource): Promise<void> {
  const lock = connectionLockFor(dataSource)!;
  const optimize = (pragma: string) => lock.run(() => dataSource.query(pragma));
  await optimize('PRAGMA optimize = 0x10002');
  const timer = setInterval(() => {
    if (!dataSource.isInitialized) return clearInterval(timer);
    // Statistics are an optimization: a failed run leaves the previous ones in place.
    optimize('PRAGMA optimize').catch(() => undefined);
  }, SQLITE_OPTIMIZE_MS);
  timer.unref();
}

export function dataSourceOptions(databaseUrl: string): DataSourceOptions {
  const common = {
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsRun: true,
    migrationsTransactionMode: 'all',
    synchronize: false,
    logging: false,
  } as const;

  if (databaseUrl.startsWith(SQLITE_PREFIX)) {
    const database = sqlitePath(databaseUrl.slice(SQLITE_PREFIX.length));
    if (database !== SQLITE_MEMORY) mkdirSync(dirname(database), { recursive: true, mode: 0o700 });
    return {
      ...common,
      type: 'better-sqlite3',
      database,
      timeout: SQLITE_BUSY_TIMEOUT_MS,
      enableWAL: database !== SQLITE_MEMORY,
      prepareDatabase: (db: SqliteHandle) => {
        // WAL makes NORMAL durable enough (a crash may lose the last commits, never corrupt).
        db.pragma('synchronous = NORMAL');
        db.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
        db.pragma('foreign_keys = ON');
      },
    };
  }

  if (/^postgres(ql)?:\/\//.test(databaseUrl)) {
    return { ...common, type: 'postgres', url: databaseUrl };
  }

  // The URL may carry a password: never echo it.
  throw new DatabaseUrlError('DATABASE_URL must start with sqlite: or postgres://');
}

/** The SQLite database file a `sqlite:` URL names; undefined for Postgres and `sqlite::memory:`. */
export function sqliteFile(databaseUrl: string): string | undefined {
  if (!databaseUrl.startsWith(SQLITE_PREFIX)) return undefined;
  const database = sqlitePath(databaseUrl.slice(SQLITE_PREFIX.length));
  return database === SQLITE_MEMORY ? undefined : database;
}

function sqlitePath(path: string): string {
  if (path === '') throw new DatabaseUrlError('DATABASE_URL sqlite: needs a file path or :memory:');
  return path === SQLITE_MEMORY ? path : resolve(path);
}
