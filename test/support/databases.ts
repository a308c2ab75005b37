import { createScratchDatabase, postgresSuiteEnabled } from './postgres';

/** A database a platform under test runs on: `url` for Postgres, none for the embedded SQLite. */
export interface PlatformDatabase {
  name: 'SQLite' | 'Postgres';
  /** A fresh database: its url (none: SQLite in the platform's data directory) and how to drop it. */
  create(): Promise<{ url?: string; drop(): Promise<void> }>;
}

const SQLITE: PlatformDatabase = { name: 'SQLite', create: async () => ({ drop: async () => undefined }) };
const POSTGRES: PlatformDatabase = { name: 'Postgres', create: createScratchDatabase };

/**
 * SQLite always, Postgres when it answers (and always under CI=true: `postgresSuiteEnabled`
 * throws there when it does not), for `describe.each` of a suite that must answer the same on both.
 */
export function platformDatabases(what: string): PlatformDatabase[] {
  return postgresSuiteEnabled(what) ? [SQLITE, POSTGRES] : [SQLITE];
}
