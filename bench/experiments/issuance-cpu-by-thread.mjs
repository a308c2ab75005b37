#!/usr/bin/env node
/**
 * CPU per issued token, thread by thread: the platform at a fixed rate below saturation (so
 * no process waits for a core), each process's threads read from /proc before and after. The
 * control plane's main thread is reported apart from its other threads (libuv's pool, where
 * the RS256 signature is computed, and V8's). With PIN=1 the control plane's main thread gets
 * core 0 to itself and everything else shares core 1, so that a CPU profile of it
 * (PROF=<dir>) charges no function for time spent preempted. See docs/performance.md.
 *
 *   npm run build && RATE=1000 ROUNDS=3 CONNECTIONS=16 node bench/experiments/issuance-cpu-by-thread.mjs
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { clientCredentialsForm, FORM, registerServiceApp } from '../lib/oauth.mjs';
import { startPlatform } from '../lib/platform.mjs';
import { cleanup, installSignalHandlers } from '../lib/processes.mjs';

const RATE = Number(process.env.RATE ?? 1000);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 16);
const SECONDS = 6;
const TICKS_PER_SECOND = 100;

installSignalHandlers();
const microsNow = () => Number(process.hrtime.bigint() / 1000n);

/** CPU seconds of each thread of `pid`, by thread id. */
function threadSeconds(pid) {
  const seconds = new Map();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    seconds.set(Number(tid), (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND);
  }
  return seconds;
}

/** Per process (the control plane split into its main thread and the rest): CPU seconds. */
function usage(pids) {
  const out = {};
  for (const [name, pid] of Object.entries(pids)) {
    const threads = threadSeconds(pid);
    const total = [...threads.values()].reduce((a, b) => a + b, 0);
    if (name === 'control-plane') {
      out['control-plane main'] = threads.get(pid);
      out['control-plane other threads'] = total - threads.get(pid);
    } else out[name] = total;
  }
  return out;
}

function pin(pids) {
  const cp = pids['control-plane'];
  for (const tid of readdirSync(`/proc/${cp}/task`)) execFileSync('taskset', ['-p', '-c', '1', tid]);
  execFileSync('taskset', ['-p', '-c', '0', String(cp)]);
  for (const pid of [pids.backend, pids.sidecar, process.pid])
    execFileSync('taskset', ['-a', '-p', '-c', '1', String(pid)]);
}

try {
  const platform = await startPlatform(process.env.PROF ? { cpuProfDir: process.env.PROF } : {});
  const app = await registerServiceApp(platform, 'cpu-by-thread');
  const body = clientCredentialsForm(app);
  const load = (seconds) =>
    autocannon({
      url: `${platform.baseUrl}/v1/oauth/token`,
      method: 'POST',
      headers: { 'content-type': FORM },
      body,
      connections: CONNECTIONS,
      overallRate: RATE,
      duration: seconds,
    });
  await load(3);
  if (process.env.PIN) pin(platform.pids);
  const from = microsNow();
  console.log(`${RATE} tokens/s, ${SECONDS} s per round; CPU µs per token:`);
  for (let round = 0; round < ROUNDS; round++) {
    const before = usage(platform.pids);
    const result = await load(SECONDS);
    const after = usage(platform.pids);
    const tokens = result['2xx'];
    const row = Object.keys(after).map((k) => `${k} ${Math.round(((after[k] - before[k]) * 1e6) / tokens)}`);
    console.log(`  ${tokens} tokens (${result.non2xx + result.errors} failed): ${row.join(', ')}`);
  }
  if (process.env.PROF) {
    // For profile-summary's --load, and which profile is which process.
    writeFileSync(
      `${process.env.PROF}/loads.json`,
      JSON.stringify([{ name: 'fixed rate', from, to: microsNow() }]),
    );
    writeFileSync(`${process.env.PROF}/processes.json`, JSON.stringify(platform.pids));
  }
} finally {
  await cleanup();
}
