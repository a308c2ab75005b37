#!/usr/bin/env node
/**
 * Where a token's CPU goes in the real platform, layer by layer: the same client_credentials
 * request through the backend and straight to the control plane's internal endpoint, the
 * cheapest route of each process (a GET through the same Fastify + Nest stack), and an RS256
 * signature alone (node:crypto's sign job, 64 in flight, in this process). autocannon, 64
 * connections; CPU microseconds per request in each process. Run after `npm run build`.
 *
 *   node bench/experiments/issuance-layers.mjs [--seconds 5]
 */
import { generateKeyPairSync, sign } from 'node:crypto';
import { parseArgs } from 'node:util';
import { httpLoad } from '../lib/load.mjs';
import { clientCredentialsForm, FORM, registerServiceApp } from '../lib/oauth.mjs';
import { startPlatform } from '../lib/platform.mjs';
import { cpuSeconds } from '../lib/proc.mjs';
import { cleanup, installSignalHandlers } from '../lib/processes.mjs';

const CONNECTIONS = 64;
const { values } = parseArgs({ options: { seconds: { type: 'string', default: '5' } } });
const seconds = Number(values.seconds);

/** CPU µs per operation of `work` (which answers how many operations it did) in each process. */
async function cpuPerOperation(pids, work) {
  const before = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, cpuSeconds(pid)]));
  const harness = process.cpuUsage();
  const operations = await work();
  const used = process.cpuUsage(harness);
  const perOperation = { harness: Math.round((used.user + used.system) / operations) };
  for (const [name, pid] of Object.entries(pids)) {
    perOperation[name] = Math.round(((cpuSeconds(pid) - before[name]) * 1e6) / operations);
  }
  return perOperation;
}

/** RS256 signatures for `seconds`, 64 in flight, as the control plane signs; answers the count. */
function signFor(seconds) {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const input = Buffer.from('x'.repeat(420)); // about a token's header and claims
  const deadline = performance.now() + seconds * 1000;
  let done = 0;
  return new Promise((resolve, reject) => {
    let inFlight = 0;
    const next = () => {
      if (performance.now() >= deadline) {
        if (inFlight === 0) resolve(done);
        return;
      }
      inFlight += 1;
      sign('sha256', input, privateKey, (error) => {
        inFlight -= 1;
        if (error) return reject(error);
        done += 1;
        next();
      });
    };
    for (let i = 0; i < CONNECTIONS; i += 1) next();
  });
}

installSignalHandlers();
try {
  const platform = await startPlatform();
  const app = await registerServiceApp(platform, 'layers-bench');
  const body = clientCredentialsForm(app);
  const controlPlane = platform.env.CONTROL_PLANE_URL;
  const loads = [
    [
      'token through the backend',
      { url: `${platform.baseUrl}/v1/oauth/token`, method: 'POST', headers: { 'content-type': FORM }, body },
    ],
    [
      'token at the control plane',
      {
        // A batch of one, as the backend sends a lone request.
        url: `${controlPlane}/internal/v1/oauth/token-batch`,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-internal-token': platform.internalToken },
        body: JSON.stringify({ requests: [{ form: body, request_id: 'layers' }] }),
      },
    ],
    ['GET /v1/ping, backend', { url: `${platform.baseUrl}/v1/ping` }],
    ['GET /health, control plane', { url: `${controlPlane}/health` }],
  ];
  const { backend, 'control-plane': cp } = platform.pids;
  console.log(`CPU µs per request, ${CONNECTIONS} connections, ${seconds} s each after 2 s of warm-up`);
  for (const [name, load] of loads) {
    await httpLoad({ ...load, connections: CONNECTIONS }, 2);
    let result;
    const cpu = await cpuPerOperation({ backend, 'control plane': cp }, async () => {
      result = await httpLoad({ ...load, connections: CONNECTIONS }, seconds);
      return result.requests;
    });
    console.log(
      `${name.padEnd(28)} ${Math.round(result.rps).toLocaleString('en-US').padStart(7)} req/s, errors ${result.errors}; ` +
        Object.entries(cpu)
          .map(([process, us]) => `${process} ${us}`)
          .join(', '),
    );
  }
  const signing = await cpuPerOperation({}, () => signFor(seconds));
  console.log(`${'RS256 sign alone'.padEnd(28)} harness ${signing.harness} µs per signature`);
} finally {
  await cleanup();
}
