#!/usr/bin/env node
/**
 * `npm run soak [-- <seconds>]` (default 300): issue 46's mixed load on the platform for that
 * long, then each process's memory growth per minute. The load: two client-credentials issuers
 * (apps of a tenant whose plan meters tokens_issued, issue 40), three readers of `GET /v1/me` over
 * a rotating set of tokens, one introspector, one revoker, one client that opens the live
 * token-event stream through the backend and drops it after 5-45 ms, again and again, and two
 * callers of the sidecar's ConsumeQuota, each call with its own idempotency key. The bar: under 10 MiB a minute for every process after the first
 * minute, and no 5xx; the exit code says whether it was met. Not part of `npm test`.
 */
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { createQuotaServiceClient } from '@platform/grpc';
import { adminPut, issueToken, postForm, registerServiceApp } from './lib/oauth.mjs';
import { startPlatform } from './lib/platform.mjs';
import { readRss } from './lib/proc.mjs';
import { cleanup, installSignalHandlers } from './lib/processes.mjs';

const MIB = 1024 * 1024;
const BAR_MIB_PER_MINUTE = 10;
const seconds = Number(process.argv[2] ?? 300);
if (!(seconds >= 60)) throw new Error('give the soak at least 60 seconds');

installSignalHandlers();
const platform = await startPlatform();
const tokenUrl = `${platform.baseUrl}/v1/oauth/token`;
const TENANT = 'soak';
await meterTheTenant();
const soakApp = (name) =>
  registerServiceApp(platform, name, ['jobs.read', 'quotas.consume'], { tenant: TENANT });
const apps = [await soakApp('soak-a'), await soakApp('soak-b')];
const tokens = [];
const counts = { requests: 0, serverErrors: 0, streams: 0, consumptions: 0 };
const deadline = Date.now() + seconds * 1000;
const running = () => Date.now() < deadline;

const count = (status) => {
  counts.requests += 1;
  if (status >= 500) counts.serverErrors += 1;
};
const someToken = () => tokens[Math.floor(Math.random() * tokens.length)];

async function issuer(app) {
  while (running()) {
    const response = await fetch(tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: app.clientId,
        client_secret: app.clientSecret,
      }),
    });
    count(response.status);
    const body = await response.json();
    if (body.access_token) tokens.push(body.access_token);
    if (tokens.length > 200) tokens.shift();
  }
}

async function reader() {
  while (running()) {
    const response = await fetch(`${platform.baseUrl}/v1/me`, {
      headers: { authorization: `Bearer ${someToken()}` },
    });
    count(response.status);
    await response.arrayBuffer();
  }
}

async function introspector() {
  const [app] = apps;
  while (running()) {
    const fields = { token: someToken(), client_id: app.clientId, client_secret: app.clientSecret };
    count((await postForm(`${platform.baseUrl}/v1/oauth/introspect`, fields)).status);
  }
}

async function revoker() {
  const [, app] = apps;
  while (running()) {
    const token = tokens.splice(Math.floor(Math.random() * tokens.length), 1)[0];
    const fields = { token, client_id: app.clientId, client_secret: app.clientSecret };
    count((await postForm(`${platform.baseUrl}/v1/oauth/revoke`, fields)).status);
    await sleep(50);
  }
}

/** An operator's dashboard on a flaky network: opens the live token events, drops them early. */
async function streamDropper() {
  const { port, hostname } = new URL(platform.baseUrl);
  let admin = await issueToken(tokenUrl, platform.admin, 'admin.*');
  let issuedAt = Date.now();
  while (running()) {
    if (Date.now() - issuedAt > 60_000) {
      admin = await issueToken(tokenUrl, platform.admin, 'admin.*');
      issuedAt = Date.now();
    }
    await new Promise((resolve) => {
      const socket = connect(Number(port), hostname, () => {
        socket.write(
          `GET /api/v1/token-events HTTP/1.1\r\nhost: ${hostname}\r\naccept: text/event-stream\r\n` +
            `authorization: Bearer ${admin.access_token}\r\n\r\n`,
        );
        socket.once('data', (head) => {
          const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head.toString('latin1'))?.[1]);
          if (status) count(status);
        });
      });
      socket.on('error', () => undefined);
      setTimeout(
        () => {
          socket.destroy();
          resolve(undefined);
        },
        5 + Math.random() * 40,
      );
    });
    counts.streams += 1;
  }
}

/** A plan on the tenant: issuance metered (soft, never reached), a meter for ConsumeQuota. */
async function meterTheTenant() {
  const put = await adminPut(platform);
  const huge = 1_000_000_000_000;
  await put('/plans/soak', {
    quotas: {
      tokens_issued: { limit: huge, period: 'month', enforcement: 'soft' },
      widgets: { limit: huge, period: 'hour' },
    },
  });
  await put(`/tenants/${TENANT}/subscription`, {
    assignments: [{ plan: 'soak', from: '2026-01-01T00:00:00Z' }],
  });
}

/** A tenant's service counting its own meter through the sidecar, a new idempotency key a call. */
async function quotaConsumer(app, client) {
  const { access_token: token } = await issueToken(tokenUrl, app, 'quotas.consume');
  let n = 0;
  while (running()) {
    const granted = await new Promise((resolve) =>
      client.ConsumeQuota(
        { token, meter: 'widgets', units: 1, idempotency_key: `${app.clientId}-${n++}` },
        (error, answer) => resolve(!error && answer.granted),
      ),
    );
    counts.requests += 1;
    counts.consumptions += 1;
    if (!granted) counts.serverErrors += 1;
  }
}

/** RSS of every process, once a minute and at the end. */
const samples = [];
const sample = () => {
  const rss = Object.fromEntries(Object.entries(platform.pids).map(([name, pid]) => [name, readRss(pid)]));
  samples.push({ at: Date.now(), rss });
  const row = Object.entries(rss)
    .map(([name, bytes]) => `${name} ${(bytes / MIB).toFixed(1)} MiB`)
    .join(', ');
  console.log(`[${String(Math.round((samples.at(-1).at - samples[0].at) / 1000)).padStart(4)} s] ${row}`);
};

try {
  while (tokens.length < 10) tokens.push((await issueToken(tokenUrl, apps[0])).access_token);
  sample();
  const minutes = setInterval(sample, 60_000);
  const quotaClient = createQuotaServiceClient(platform.sidecarAddress);
  await Promise.all([
    ...apps.map((app) => quotaConsumer(app, quotaClient)),
    ...apps.map(issuer),
    reader(),
    reader(),
    reader(),
    introspector(),
    revoker(),
    streamDropper(),
  ]);
  clearInterval(minutes);
  quotaClient.close();
  sample();

  // Growth after the first minute: what leaks, not what warms up.
  const [first] = samples.filter((s) => s.at - samples[0].at >= 59_000);
  const last = samples.at(-1);
  const minutesMeasured = (last.at - first.at) / 60_000;
  let met = counts.serverErrors === 0;
  console.log(
    `\n${seconds} s: ${counts.requests} requests (${counts.serverErrors} 5xx), ` +
      `${counts.streams} live streams opened and dropped, ${counts.consumptions} quota consumptions`,
  );
  console.log('memory growth per minute after the first minute:');
  for (const name of Object.keys(platform.pids)) {
    const perMinute = (last.rss[name] - first.rss[name]) / MIB / minutesMeasured;
    met &&= perMinute < BAR_MIB_PER_MINUTE;
    console.log(`  ${name.padEnd(14)} ${perMinute.toFixed(1)} MiB/min`);
  }
  console.log(met ? 'bar met' : `bar NOT met (< ${BAR_MIB_PER_MINUTE} MiB/min each, no 5xx)`);
  process.exitCode = met ? 0 : 1;
} finally {
  await cleanup();
}
