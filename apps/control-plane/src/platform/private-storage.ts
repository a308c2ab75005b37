import { existsSync, mkdirSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import {
  type PlatformConfig,
  ensurePrivateDirectory,
  ensurePrivateFile,
  PRIVATE_DIRECTORY_MODE,
  PRIVATE_FILE_MODE,
  tighten,
} from '@platform/config';
import { sqliteFile } from '@platform/persistence';

/**
 * Before the database opens: DATA_DIR 0700 with its files 0600 (created when the SQLite file
 * lives in it, tightened whenever it exists), and the SQLite file created 0600 before SQLite
 * opens it, so its WAL and shared-memory files, which SQLite creates with the database's mode,
 * are 0600 too. A directory of the operator's own holding the file is never changed. Answers one
 * line per mode it tightened, for the log.
 */
export function securePrivateStorage(config: Pick<PlatformConfig, 'dataDir' | 'databaseUrl'>): string[] {
  const database = sqliteFile(config.databaseUrl);
  const inDataDir = database !== undefined && !relative(config.dataDir, database).startsWith('..');
  const changes = inDataDir || existsSync(config.dataDir) ? ensurePrivateDirectory(config.dataDir) : [];
  if (database === undefined) return changes;
  mkdirSync(dirname(database), { recursive: true, mode: PRIVATE_DIRECTORY_MODE });
  return [
    ...changes,
    ...ensurePrivateFile(database),
    ...[`${database}-wal`, `${database}-shm`]
      .map((file) => tighten(file, PRIVATE_FILE_MODE))
      .filter((change): change is string => change !== undefined),
  ];
}
