#!/usr/bin/env node
/**
 * CPU per issued token, thread by thread: the platform at a fixed rate below saturation (so
 * no process waits for a core), each process's threads read from /proc before and after. The
 * main threads of the control plane and the backend are reported apart from their other threads
 * (libuv's pool, where the RS256 signature is computed, and V8's). With PIN=control-plane (or
 * PIN=1) or PIN=backend that process's main thread gets core 0 to itself and everything else
 * shares core 1, so that a CPU profile of it (PROF=<dir>) charges no function for time spent
 * preempted. The platform's processes inherit this environment (OTEL_* turns tracing on). See
 * docs/performance.md.
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

const SPLIT = ['control-plane', 'backend'];
const PINNED = process.env.PIN === '1' ? 'control-plane' : process.env.PIN;

/** Per process (the control plane and the backend split into main thread and the rest): CPU seconds. */
function usage(pids) {
  const out = {};
  for (const [name, pid] of Object.entries(pids)) {
    const threads = threadSeconds(pid);
    const total = [...threads.values()].reduce((a, b) => a + b, 0);
    if (SPLIT.includes(name)) {
      out[`${name} main`] = threads.get(pid);
      out[`${name} other threads`] = total - threads.get(pid);
    } else out[name] = total;
  }
  return out;
}

function pin(pids, name) {
  const main = pids[name];
  for (const tid of readdirSync(`/proc/${main}/task`)) execFileSync('taskset', ['-p', '-c', '1', tid]);
  execFileSync('taskset', ['-p', '-c', '0', String(main)]);
  const others = Object.entries(pids).filter(([other]) => other !== name);
  for (const pid of [...others.map(([, pid]) => pid), process.pid])
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
  if (PINNED) pin(platform.pids, PINNED);
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
