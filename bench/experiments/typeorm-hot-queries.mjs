#!/usr/bin/env node
/**
 * The two queries of every client_credentials token (find the application, append the
 * `token.issued` event) through the TypeORM stores the control plane uses, against the same
 * SQL as one raw query each through the same DataSource, and as better-sqlite3 prepared
 * statements. CPU microseconds per token, on a fresh SQLite file. See docs/performance.md.
 *
 *   npm run build && node bench/experiments/typeorm-hot-queries.mjs
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const require = createRequire(import.meta.url);
require('reflect-metadata');
const { openDataSource, TypeOrmStores } = require('@platform/persistence');

const SELECT_APP =
  'SELECT client_id, name, app_type, declared_scopes, redirect_uris, secret_hash, created_at, rotated_at ' +
  'FROM applications WHERE client_id = ?';
const INSERT_EVENT =
  'INSERT INTO token_events (type, client_id, subject, jti, grant_id, occurred_at) VALUES (?, ?, ?, ?, ?, ?)';

const dir = mkdtempSync(join(tmpdir(), 'typeorm-experiment-'));
const dataSource = await openDataSource(`sqlite:${join(dir, 'platform.sqlite')}`);
try {
  const stores = TypeOrmStores.forDataSource(dataSource);
  await stores.applications.insertApplication({
    clientId: 'bench',
    name: 'bench',
    appType: 'service',
    declaredScopes: ['jobs.read'],
    redirectUris: [],
    secretHash: `$argon2id$v=19$m=65536,t=3,p=4$${'a'.repeat(60)}`,
    createdAt: new Date(),
    rotatedAt: null,
  });
  const event = () => ({
    type: 'token.issued',
    clientId: 'bench',
    subject: 'bench',
    jti: Math.random().toString(36).slice(2),
    grantId: null,
    occurredAt: new Date(),
  });
  const row = (e) => [e.type, e.clientId, e.subject, e.jti, e.grantId, e.occurredAt.getTime()];
  const db = dataSource.driver.databaseConnection;
  const select = db.prepare(SELECT_APP);
  const insert = db.prepare(INSERT_EVENT);
  const variants = {
    'TypeORM stores (today)': async () => {
      await stores.applications.findApplication('bench');
      await stores.tokenEvents.appendTokenEvents([event()]);
    },
    'raw SQL, DataSource.query': async () => {
      await dataSource.query(SELECT_APP, ['bench']);
      await dataSource.query(INSERT_EVENT, row(event()));
    },
    'better-sqlite3 prepared': async () => {
      select.get('bench');
      insert.run(...row(event()));
    },
  };
  for (let round = 0; round < 2; round++) {
    for (const [name, token] of Object.entries(variants)) {
      for (let i = 0; i < 500; i++) await token();
      const count = 4000;
      const before = process.cpuUsage();
      for (let i = 0; i < count; i++) await token();
      const used = process.cpuUsage(before);
      console.log(`${name.padEnd(28)} ${Math.round((used.user + used.system) / count)} µs CPU per token`);
    }
  }
} finally {
  await dataSource.destroy();
  rmSync(dir, { recursive: true, force: true });
}
