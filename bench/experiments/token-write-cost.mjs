#!/usr/bin/env node
/**
 * What a token's writes cost SQLite by the size of the group commit that carries them: one
 * `token.issued` audit record and one token event per token, as the control plane's statements
 * write them (raw better-sqlite3 on a migrated file, no TypeORM), with wall and CPU time per
 * token and the COMMIT's share, for random `jti`s and for the time-ordered ones the platform
 * issues (libs/domain/src/tokens/token-id.ts). See docs/performance.md.
 *
 *   npm run build && TOKENS=30000 node bench/experiments/token-write-cost.mjs
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const require = createRequire(import.meta.url);
require('reflect-metadata');
const { AUDIT_RECORD_COLUMNS, openDataSource, TOKEN_EVENT_COLUMNS } = require('@platform/persistence');
const { newTokenId } = require('@platform/domain');

const rows = (count, width) =>
  Array(count)
    .fill(`(${Array(width).fill('?').join(',')})`)
    .join(',');
const TOKENS = Number(process.env.TOKENS ?? 6000);
const JTI = {
  random: () => randomBytes(16).toString('base64url'),
  'time-ordered': () => newTokenId(Date.now()),
};

for (const [kind, newJti] of Object.entries(JTI)) {
  console.log(`${kind} jti, a new database:`);
  await measure(newJti);
}

async function measure(newJti) {
  const dir = mkdtempSync(join(tmpdir(), 'token-writes-'));
  const dataSource = await openDataSource(`sqlite:${join(dir, 'platform.sqlite')}`);
  try {
    const db = dataSource.driver.databaseConnection;
    const begin = db.prepare('BEGIN');
    const commit = db.prepare('COMMIT');
    let sequenceId = 1;
    for (const batch of [1, 4, 14, 32]) {
      const audit = db.prepare(
        `INSERT INTO audit_records (${AUDIT_RECORD_COLUMNS}) VALUES ${rows(batch, 12)}`,
      );
      const events = db.prepare(`INSERT INTO token_events (${TOKEN_EVENT_COLUMNS}) VALUES ${rows(batch, 6)}`);
      const commits = Math.round(TOKENS / batch);
      let committing = 0n;
      const cpu = process.cpuUsage();
      const start = process.hrtime.bigint();
      for (let i = 0; i < commits; i++) {
        const auditValues = [];
        const eventValues = [];
        for (let j = 0; j < batch; j++) {
          const jti = newJti();
          const now = Date.now();
          auditValues.push(
            sequenceId++,
            randomBytes(32).toString('hex'),
            randomBytes(32).toString('hex'),
            null,
            'app',
            'bench',
            'token.issued',
            jti,
            'success',
            now,
            randomBytes(8).toString('hex'),
            '{"client_id":"bench"}',
          );
          eventValues.push('token.issued', 'bench', 'bench', jti, null, now);
        }
        begin.run();
        audit.run(...auditValues);
        events.run(...eventValues);
        const committed = process.hrtime.bigint();
        commit.run();
        committing += process.hrtime.bigint() - committed;
      }
      const tokens = commits * batch;
      const wall = Number(process.hrtime.bigint() - start) / 1000 / tokens;
      const used = process.cpuUsage(cpu);
      console.log(
        `${String(batch).padStart(2)} tokens per commit: ${wall.toFixed(0)} µs wall, ` +
          `${((used.user + used.system) / tokens).toFixed(0)} µs CPU per token ` +
          `(COMMIT ${(Number(committing) / 1000 / tokens).toFixed(0)} µs wall)`,
      );
    }
  } finally {
    await dataSource.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
}
