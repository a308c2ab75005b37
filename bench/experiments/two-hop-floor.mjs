#!/usr/bin/env node
/**
 * The floor of issuance in our process layout: a token request that crosses two Node HTTP
 * servers with no framework, no database and no client check (a "backend" relaying the form
 * body with undici to a "control plane" that signs an RS256 JWT with crypto.sign and answers).
 * autocannon, 64 connections, as the benchmark; CPU microseconds per token in each process.
 * Whatever our real stack costs above these figures is framework, storage and checks.
 *
 * With --writes the "control plane" also leaves behind what the spec asks of every token (a
 * token event and a hash-chained audit record), as plainly as SQLite allows: see tokenRecorder.
 * The difference between the two floors is the price of the writes, not of our code.
 *
 *   npm run build && node bench/experiments/two-hop-floor.mjs [--seconds 5] [--writes]
 */
import { fork } from 'node:child_process';
import { generateKeyPairSync, randomBytes, randomUUID, sign } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { Pool } from 'undici';
import { cpuSeconds } from '../lib/proc.mjs';

const CONNECTIONS = 64;
const FORM = 'application/x-www-form-urlencoded';
const base64url = (value) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** Collects a request body, then calls `answer(body, res)`. */
const server = (answer) =>
  createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => answer(body, res));
  });

const listen = (httpServer) =>
  httpServer.listen(0, '127.0.0.1', () => process.send(httpServer.address().port));

/**
 * Records each token as the spec asks (section "Audit"): a `token.issued` token event and an
 * audit record chained by the domain's own hash (RFC 8785 body, SHA-256), in the platform's
 * schema (its migrations, every index), with raw prepared better-sqlite3 statements and no ORM:
 * the tokens of one turn of the event loop share one transaction, and each is answered once its
 * transaction has committed, as the platform answers.
 */
async function tokenRecorder() {
  const require = createRequire(import.meta.url);
  require('reflect-metadata');
  const {
    AUDIT_RECORD_COLUMNS,
    auditRecordValues,
    openDataSource,
    TOKEN_EVENT_COLUMNS,
    tokenEventValues,
  } = require('@platform/persistence');
  const { AuditTrail, chainAuditRecords } = require('@platform/domain');
  // The platform's own mapping of a token event to its audit record, each with a correlation id.
  const trail = new AuditTrail({ now: () => new Date() }, randomUUID);
  const dir = mkdtempSync(join(tmpdir(), 'two-hop-floor-'));
  process.once('SIGTERM', () => process.exit(0));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const db = (await openDataSource(`sqlite:${join(dir, 'floor.sqlite')}`)).driver.databaseConnection;
  const head = db.prepare('SELECT last_sequence_id, last_hash FROM audit_chain_head WHERE id = 1');
  const moveHead = db.prepare('UPDATE audit_chain_head SET last_sequence_id = ?, last_hash = ? WHERE id = 1');
  const inserts = new Map();
  const insertsOf = (count) => {
    if (!inserts.has(count)) {
      const rows = (width) =>
        Array(count)
          .fill(`(${Array(width).fill('?').join(',')})`)
          .join(',');
      inserts.set(count, {
        events: db.prepare(`INSERT INTO token_events (${TOKEN_EVENT_COLUMNS}) VALUES ${rows(6)}`),
        audit: db.prepare(`INSERT INTO audit_records (${AUDIT_RECORD_COLUMNS}) VALUES ${rows(12)}`),
      });
    }
    return inserts.get(count);
  };
  const write = db.transaction((batch) => {
    const { events, audit } = insertsOf(batch.length);
    const occurredAt = new Date();
    const issued = batch.map(({ claims: c }) => ({
      type: 'token.issued',
      clientId: c.client_id,
      subject: c.sub,
      jti: c.jti,
      grantId: null,
      occurredAt,
    }));
    events.run(issued.flatMap(tokenEventValues));
    const { last_sequence_id: lastSequenceId, last_hash: lastHash } = head.get();
    const records = chainAuditRecords(
      { lastSequenceId, lastHash },
      issued.map((event) => trail.ofTokenEvent(event)),
    );
    audit.run(records.flatMap(auditRecordValues));
    const last = records[records.length - 1];
    moveHead.run(last.sequenceId, last.recordHash);
  });
  let pending = [];
  const flush = () => {
    const batch = pending;
    pending = [];
    write(batch);
    for (const { recorded } of batch) recorded();
  };
  return (claims, recorded) => {
    if (pending.length === 0) setImmediate(flush);
    pending.push({ claims, recorded });
  };
}

async function controlPlane(writes) {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const record = writes ? await tokenRecorder() : (claims, recorded) => recorded();
  listen(
    server((body, res) => {
      const form = new URLSearchParams(body);
      const now = Math.floor(Date.now() / 1000);
      const claims = {
        iss: 'http://localhost:3000',
        sub: form.get('client_id'),
        aud: 'http://localhost:3000',
        exp: now + 3600,
        iat: now,
        jti: randomBytes(16).toString('base64url'),
        client_id: form.get('client_id'),
        scope: form.get('scope'),
      };
      const input = `${base64url({ alg: 'RS256', typ: 'at+jwt', kid: 'k' })}.${base64url(claims)}`;
      sign('sha256', Buffer.from(input), privateKey, (error, signature) => {
        const token = `${input}.${signature.toString('base64url')}`;
        record(claims, () => {
          res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
          res.end(JSON.stringify({ access_token: token, token_type: 'Bearer', expires_in: 3600 }));
        });
      });
    }),
  );
}

function backend(controlPlanePort) {
  const pool = new Pool(`http://127.0.0.1:${controlPlanePort}`, { connections: CONNECTIONS });
  listen(
    server(async (body, res) => {
      const answer = await pool.request({
        method: 'POST',
        path: '/token',
        headers: { 'content-type': FORM },
        body,
      });
      const bytes = Buffer.from(await answer.body.arrayBuffer());
      res.writeHead(answer.statusCode, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(bytes);
    }),
  );
}

async function measure(seconds, writes) {
  const start = (args) =>
    new Promise((resolve) => {
      const child = fork(new URL(import.meta.url).pathname, args);
      child.once('message', (port) => resolve({ child, port }));
    });
  const cp = await start(['--role', 'control-plane', ...(writes ? ['--writes'] : [])]);
  const be = await start(['--role', 'backend', '--upstream', String(cp.port)]);
  try {
    for (const [name, port] of [
      ['control plane alone', cp.port],
      ['backend -> control plane', be.port],
    ]) {
      const options = {
        url: `http://127.0.0.1:${port}/token`,
        method: 'POST',
        headers: { 'content-type': FORM },
        body: 'grant_type=client_credentials&client_id=bench&client_secret=s&scope=jobs.read',
        connections: CONNECTIONS,
      };
      await load({ ...options, duration: 2 });
      const before = {
        cp: cpuSeconds(cp.child.pid),
        be: cpuSeconds(be.child.pid),
        harness: process.cpuUsage(),
      };
      const result = await load({ ...options, duration: seconds });
      const tokens = result['2xx'];
      const harness = process.cpuUsage(before.harness);
      const perToken = (used) => Math.round((used * 1e6) / tokens);
      console.log(
        `${name.padEnd(26)} ${Math.round(tokens / result.duration).toLocaleString('en-US')} tokens/s, errors ${result.errors + result.non2xx}; ` +
          `CPU µs per token: control plane ${perToken(cpuSeconds(cp.child.pid) - before.cp)}, ` +
          `backend ${perToken(cpuSeconds(be.child.pid) - before.be)}, harness ${perToken((harness.user + harness.system) / 1e6)}`,
      );
    }
  } finally {
    cp.child.kill();
    be.child.kill();
  }
}

const load = (options) =>
  new Promise((resolve, reject) => autocannon(options, (e, r) => (e ? reject(e) : resolve(r))));

const { values } = parseArgs({
  options: {
    role: { type: 'string' },
    upstream: { type: 'string' },
    seconds: { type: 'string', default: '5' },
    writes: { type: 'boolean', default: false },
  },
});
if (values.role === 'control-plane') await controlPlane(values.writes);
else if (values.role === 'backend') backend(values.upstream);
else await measure(Number(values.seconds), values.writes);
