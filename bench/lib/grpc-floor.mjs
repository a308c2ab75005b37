import { spawn } from 'node:child_process';
import { openSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadSync } from '@grpc/proto-loader';
import { grpc, grpcLoad } from './load.mjs';
import { freePort } from './platform.mjs';
import { assertRunning, onCleanup, track } from './processes.mjs';

const require = createRequire(import.meta.url);
const { correlationInterceptor, PROTO_LOADER_OPTIONS } = require('@platform/grpc');
const { stopChild } = require('../../scripts/platform-launcher.js');

const ECHO_SERVER = fileURLToPath(new URL('../peer/grpc-echo-server.mjs', import.meta.url));
const ECHO_PROTO = fileURLToPath(new URL('../peer/echo.proto', import.meta.url));
const START_TIMEOUT_MS = 30_000;

/** The sidecar rows judged against the floor (issue 45): at least half its calls/s, aim 0.8x. */
const JUDGED = [
  ['grpc-validate', 'Sidecar ValidateToken'],
  ['rate-limit-memory', 'Sidecar CheckRateLimit, counters in memory'],
  ['rate-limit-redis', 'Sidecar CheckRateLimit, counters in Redis'],
  ['flags', 'Sidecar EvaluateFlag'],
  ['check-entitlement', 'Sidecar CheckEntitlement'],
  ['consume-quota-database', 'Sidecar ConsumeQuota, counted in the database'],
  ['consume-quota-redis', 'Sidecar ConsumeQuota, counted in Redis'],
];

/** report.mjs's bars for the rows above; each row names `grpc-floor` among its `ratios`. */
export const GRPC_FLOOR_BARS = JUDGED.map(([row, name]) => ({
  name: `${name} vs the gRPC floor`,
  row,
  against: 'grpc-floor',
  min: 0.5,
  aim: 0.8,
}));

/**
 * The gRPC floor (issue 45): a bare grpc-js unary echo (bench/peer/grpc-echo-server.mjs) in its
 * own process, as the sidecar is, loaded as the sidecar's rows are: grpcLoad with the same calls
 * in flight on one channel, a client built as @platform/grpc builds the SDK's and the bench's
 * (insecure loopback, the correlation interceptor, the same proto-loader options), a request of
 * about their size (the bench's access token and a short field) and a reply as small as most of
 * theirs (the short field). The sidecar rows take their ratio against its row; a ratio shows
 * only when this scenario ran in the same run.
 */
export async function grpcFloor(ctx) {
  const server = await startEchoServer(ctx.platform.dataDir);
  ctx.processes.push({ process: 'grpc-floor', healthyMs: server.healthyMs });
  ctx.sampler.add('grpc-floor', server.pid);
  ctx.sampler.idle();
  const client = echoClient(server.address);
  try {
    const request = { token: ctx.token, key: 'default' };
    const call = (done) =>
      client.Echo(request, (error, answer) =>
        done(error ?? (answer.key === request.key ? undefined : new Error('another key came back'))),
      );
    const row = await ctx.measure('grpc-floor: bare grpc-js unary echo', (seconds) =>
      grpcLoad({ call, concurrency: ctx.options.connections }, seconds),
    );
    return [
      {
        key: 'grpc-floor',
        label: `The gRPC floor: bare grpc-js unary echo in its own process (${Buffer.byteLength(ctx.token)}-byte token sent)`,
        connections: ctx.options.connections,
        ...row,
        unit: 'calls/s',
      },
    ];
  } finally {
    client.close();
  }
}

/** An EchoService client made as @platform/grpc's `connect` makes the platform's. */
function echoClient(address) {
  const { EchoService } = grpc.loadPackageDefinition(loadSync(ECHO_PROTO, PROTO_LOADER_OPTIONS)).bench.floor
    .v1;
  return new EchoService(address, grpc.credentials.createInsecure(), {
    interceptors: [correlationInterceptor],
  });
}

/** Spawns the echo server on a free loopback port; resolves once it printed that it listens. */
async function startEchoServer(logDir) {
  assertRunning();
  const address = `[::1]:${await freePort('::1')}`;
  const log = openSync(join(logDir, 'grpc-floor.log'), 'a');
  const started = performance.now();
  const child = track(
    spawn(process.execPath, [ECHO_SERVER], {
      env: { ...process.env, ECHO_ADDRESS: address },
      stdio: ['ignore', 'pipe', log],
    }),
  );
  onCleanup(() => stopChild(child));
  await new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the gRPC echo server did not listen within ${START_TIMEOUT_MS} ms`)),
      START_TIMEOUT_MS,
    );
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (text) => {
      if (!text.includes('ready')) return;
      clearTimeout(timer);
      resolve();
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the gRPC echo server exited with code ${code} (log: ${logDir}/grpc-floor.log)`));
    });
  });
  assertRunning();
  return { address, pid: child.pid, healthyMs: Math.round(performance.now() - started) };
}
