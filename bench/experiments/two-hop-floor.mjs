#!/usr/bin/env node
/**
 * The floor of issuance in our process layout: a token request that crosses two Node HTTP
 * servers with no framework, no database and no client check (a "backend" relaying the form
 * body with undici to a "control plane" that signs an RS256 JWT with crypto.sign and answers).
 * autocannon, 64 connections, as the benchmark; CPU microseconds per token in each process.
 * Whatever our real stack costs above these figures is framework, storage and checks.
 *
 *   node bench/experiments/two-hop-floor.mjs [--seconds 5]
 */
import { fork } from 'node:child_process';
import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { createServer } from 'node:http';
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

function controlPlane() {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
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
        res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
        res.end(JSON.stringify({ access_token: token, token_type: 'Bearer', expires_in: 3600 }));
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

async function measure(seconds) {
  const start = (args) =>
    new Promise((resolve) => {
      const child = fork(new URL(import.meta.url).pathname, args);
      child.once('message', (port) => resolve({ child, port }));
    });
  const cp = await start(['--role', 'control-plane']);
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
  },
});
if (values.role === 'control-plane') controlPlane();
else if (values.role === 'backend') backend(values.upstream);
else await measure(Number(values.seconds));
