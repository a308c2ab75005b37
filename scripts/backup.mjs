#!/usr/bin/env node
/**
 * Backs the control plane's database up, or restores it (docs/operations.md, "Backup and
 * restore"), with each engine's own tool: SQLite's online backup API (better-sqlite3's
 * `backup()`, safe while the control plane writes) and Postgres's `pg_dump`/`pg_restore`.
 * The database is found as the control plane finds it: DATABASE_URL, else
 * sqlite:<DATA_DIR>/platform.sqlite (DATA_DIR defaults to ./data).
 *
 *   node scripts/backup.mjs backup <file>             (npm run backup -- <file>)
 *   node scripts/backup.mjs restore <file> [--force]  (npm run restore -- <file>)
 *
 * A restore replaces the database: stop every control plane first. The KEK is not in a
 * backup (it must not be): keep it with the backups' keys, or the secrets and signing keys in
 * the backup cannot be opened.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

function fail(message) {
  console.error(`backup: ${message}`);
  process.exit(2);
}

function database() {
  const url =
    process.env.DATABASE_URL ?? `sqlite:${join(process.env.DATA_DIR ?? './data', 'platform.sqlite')}`;
  if (url.startsWith('sqlite:')) return { kind: 'sqlite', path: resolve(url.slice('sqlite:'.length)) };
  if (/^postgres(ql)?:\/\//.test(url)) return { kind: 'postgres', url };
  return fail('DATABASE_URL must start with postgres://, postgresql:// or sqlite:');
}

/** Runs a Postgres client tool, its output passed through; a missing tool or a failure ends the run. */
function run(tool, args) {
  const result = spawnSync(tool, args, { stdio: 'inherit' });
  if (result.error)
    fail(`${tool} could not be run (${result.error.code}): install the Postgres client tools`);
  if (result.status !== 0) fail(`${tool} exited with ${result.status}`);
}

const mib = (path) => `${(statSync(path).size / 1024 / 1024).toFixed(1)} MiB`;

async function backup(db, file) {
  if (existsSync(file)) fail(`${file} exists: name a new file`);
  if (db.kind === 'postgres') {
    // The custom format: compressed, and pg_restore can --clean what it restores.
    run('pg_dump', ['--format=custom', '--no-owner', `--file=${file}`, db.url]);
  } else {
    if (!existsSync(db.path)) fail(`no database at ${db.path}`);
    const Database = require('better-sqlite3');
    const source = new Database(db.path, { readonly: true, fileMustExist: true });
    try {
      await source.backup(file, {
        progress: ({ totalPages, remainingPages }) => {
          if (totalPages > 10_000)
            console.error(`backup: ${totalPages - remainingPages}/${totalPages} pages`);
          return 1_000;
        },
      });
    } finally {
      source.close();
    }
    const copy = new Database(file, { readonly: true });
    const [{ integrity_check: check }] = copy.pragma('integrity_check');
    copy.close();
    if (check !== 'ok') fail(`the copy failed its integrity check: ${check}`);
  }
  console.log(`backup: ${db.kind} database written to ${file} (${mib(file)}); the KEK is not in it`);
}

function restore(db, file, force) {
  if (!existsSync(file)) fail(`no backup at ${file}`);
  if (db.kind === 'postgres') {
    run('pg_restore', [
      '--clean',
      '--if-exists',
      '--no-owner',
      '--single-transaction',
      `--dbname=${db.url}`,
      file,
    ]);
  } else {
    if (existsSync(db.path) && !force)
      fail(`${db.path} exists: stop the control plane, then pass --force to replace it`);
    // The old write-ahead log would be replayed onto the restored file.
    for (const suffix of ['-wal', '-shm']) rmSync(`${db.path}${suffix}`, { force: true });
    copyFileSync(file, db.path);
  }
  console.log(
    `restore: ${file} restored into the ${db.kind} database; start the control planes with the KEK of the backup`,
  );
}

const [command, file, flag] = process.argv.slice(2);
if (!['backup', 'restore'].includes(command) || !file) {
  fail('usage: node scripts/backup.mjs backup <file> | restore <file> [--force]');
}
const db = database();
if (command === 'backup') await backup(db, resolve(file));
else restore(db, resolve(file), flag === '--force');
