import { chmodSync, closeSync, mkdirSync, openSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** DATA_DIR and what it holds (the SQLite file, generated secrets) are the owner's only. */
export const PRIVATE_DIRECTORY_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Creates `dir` as 0700, or tightens it and every file directly in it to 0700 and 0600 when an
 * earlier start (or a umask of 022) left them wider. Answers one line per change, for the log.
 */
export function ensurePrivateDirectory(dir: string): string[] {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIRECTORY_MODE });
  const changes = [tighten(dir, PRIVATE_DIRECTORY_MODE)];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isFile()) changes.push(tighten(join(dir, entry.name), PRIVATE_FILE_MODE));
  }
  return changes.filter((change): change is string => change !== undefined);
}

/** Creates `file` empty as 0600 unless it exists, and tightens it to 0600 if it is wider. */
export function ensurePrivateFile(file: string): string[] {
  closeSync(openSync(file, 'a', PRIVATE_FILE_MODE));
  return [tighten(file, PRIVATE_FILE_MODE)].filter((change): change is string => change !== undefined);
}

/** chmod `path` to `mode` if it allows anyone but the owner more; a missing path is left alone. */
export function tighten(path: string, mode: number): string | undefined {
  let current: number;
  try {
    current = statSync(path).mode & 0o777;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  if ((current & ~mode) === 0) return undefined;
  chmodSync(path, mode);
  return `${path} was ${current.toString(8).padStart(4, '0')}, tightened to ${mode.toString(8).padStart(4, '0')}`;
}
