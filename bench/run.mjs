#!/usr/bin/env node
/**
 * `npm run bench`: starts the platform (three processes, SQLite; Postgres when DATABASE_URL is
 * set), a second sidecar and node-oidc-provider as the peer (and, for jobs and `--databases`, a
 * platform on a scratch Postgres database, bench/lib/databases.mjs), runs every scenario with the
 * same load settings, prints the table and writes bench/results/<timestamp>.md|json and latest.md|json.
 * Every process it started is stopped on success, failure, Ctrl+C and SIGTERM.
 * Flags: `node bench/run.mjs --help`.
 */
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { httpLoad } from './lib/load.mjs';
import { describeMachine } from './lib/machine.mjs';
import { readOptions } from './lib/options.mjs';
import { startPeer } from './lib/peer.mjs';
import { freePort, startExtraBackend, startExtraSidecar, startPlatform } from './lib/platform.mjs';
import { assertRunning, cleanup, installSignalHandlers, interrupted, keepLogs } from './lib/processes.mjs';
import {
  buildReport,
  cpuTable,
  processesTable,
  resultsTable,
  writeJson,
  writeResults,
} from './lib/report.mjs';
import { issueToken, registerServiceApp } from './lib/oauth.mjs';
import { ProcessSampler } from './lib/proc.mjs';
import { scenarios } from './lib/scenarios.mjs';

const RESULTS_DIR = fileURLToPath(new URL('./results/', import.meta.url));
const require = createRequire(import.meta.url);

const options = readOptions();
/** CLOCK_MONOTONIC in microseconds: the clock of V8's CPU profiles on Linux. */
const microsNow = () => Number(process.hrtime.bigint() / 1000n);
installSignalHandlers();

const startedAt = new Date();
const clock = performance.now();
const progress = (message) => {
  const seconds = Math.round((performance.now() - clock) / 1000);
  console.log(`[${String(seconds).padStart(4)} s] ${message}`);
};

/** About how long each slice of a compared load lasts (ctx.compare): 3 rounds in a full run. */
const COMPARE_SLICE_SECONDS = 5;

function progressRow(name, { rps, p50, p99, errors, cpu }) {
  const busy = Object.entries(cpu)
    .filter(([, percent]) => percent >= 5)
    .map(([process, percent]) => `${process} ${percent}%`)
    .join(', ');
  progress(
    `  ${name}: ${Math.round(rps).toLocaleString('en-US')} req/s, p50 ${p50} ms, p99 ${p99} ms, ` +
      `${errors} errors; CPU ${busy}`,
  );
}

/** One row from the slices of a compared load (`sampler.during` answers of `httpLoad`). */
function combineSlices(slices) {
  const results = slices.map((s) => s.result);
  const sum = (pick) => results.reduce((total, r) => total + pick(r), 0);
  const requests = sum((r) => r.requests);
  const seconds = sum((r) => r.seconds);
  const p50s = results.map((r) => r.p50).sort((a, b) => a - b);
  const each = (key, combine) =>
    Object.fromEntries(
      Object.keys(slices[0][key]).map((name) => [name, combine(slices.map((s) => s[key][name]))]),
    );
  return {
    requests,
    seconds,
    rps: requests / seconds,
    p50: p50s[Math.floor((p50s.length - 1) / 2)],
    p99: Math.max(...results.map((r) => r.p99)),
    errors: sum((r) => r.errors),
    errorDetail: {
      errors: sum((r) => r.errorDetail.errors),
      timeouts: sum((r) => r.errorDetail.timeouts),
      non2xx: sum((r) => r.errorDetail.non2xx),
    },
    cpu: each('cpu', (values) => Math.round(values.reduce((a, b) => a + b, 0) / values.length)),
    rss: each('rss', (values) => (values.includes(null) ? null : Math.max(...values))),
  };
}

async function main() {
  const machine = describeMachine();
  // Other work on the machine competes with the servers and the load generator alike.
  const conditions = { loadAverage: Math.round(loadavg()[0] * 100) / 100 };
  progress(
    `${machine.cpu} x${machine.cores}, Node ${machine.node}, load average ${conditions.loadAverage}; ` +
      `scenarios: ${options.scenarios.join(', ')}`,
  );
  if (conditions.loadAverage > machine.cores / 2) {
    console.warn(
      `warning: the machine is busy (load average ${conditions.loadAverage}); the figures will suffer`,
    );
  }
  const rows = [];
  const wants = (id) => options.scenarios.includes(id);
  if (wants('limit')) rows.push(...(await scenarios.limit({ options, progress })));

  const needsPlatform = options.scenarios.some((id) => id !== 'limit');
  const needsPeer = wants('issuance') || wants('introspection');
  const sampler = new ProcessSampler();
  sampler.add('harness', process.pid);
  const processes = [];
  const ctx = { options, progress, sampler, processes };

  if (needsPlatform) {
    progress(`starting the platform (${process.env.DATABASE_URL ? 'DATABASE_URL' : 'SQLite'})`);
    const platform = await startPlatform({ cpuProfDir: options.cpuProfDir });
    ctx.platform = platform;
    for (const { process: name, healthyMs } of platform.startup) {
      processes.push({ process: name, healthyMs });
      sampler.add(name, platform.pids[name]);
    }
    ctx.app = await registerServiceApp(platform, `bench-${startedAt.getTime().toString(36)}`);
    ctx.token = (await issueToken(`${platform.baseUrl}/v1/oauth/token`, ctx.app)).access_token;
    if (wants('revocation')) {
      progress('starting a second sidecar');
      ctx.secondSidecar = await startExtraSidecar(platform);
      processes.push({ process: 'sidecar-2', healthyMs: ctx.secondSidecar.healthyMs });
      sampler.add('sidecar-2', ctx.secondSidecar.pid);
      progress('starting a second backend beside it');
      ctx.secondBackend = await startExtraBackend(platform, ctx.secondSidecar);
      processes.push({ process: 'backend-2', healthyMs: ctx.secondBackend.healthyMs });
      sampler.add('backend-2', ctx.secondBackend.pid);
    }
  }
  if (needsPeer) {
    progress('starting node-oidc-provider (the peer)');
    ctx.peer = await startPeer({
      port: await freePort(),
      logDir: ctx.platform.dataDir,
      cpuProfDir: options.cpuProfDir,
    });
    processes.push({ process: 'node-oidc-provider', healthyMs: ctx.peer.healthyMs });
    sampler.add('node-oidc-provider', ctx.peer.pid);
  }
  if (needsPlatform) {
    await new Promise((r) => setTimeout(r, 1000));
    sampler.idle();
  }
  const profiledLoads = [];
  if (options.cpuProfDir) {
    // The profiles are named after pids; this tells which process each one was.
    writeFileSync(join(options.cpuProfDir, 'processes.json'), JSON.stringify(sampler.pids(), null, 2));
  }

  /** Samples the processes while `start()` runs, noting its window for profile-summary's --load. */
  const sampled = async (name, start) => {
    const from = microsNow();
    const measured = await sampler.during(start());
    if (options.cpuProfDir) profiledLoads.push({ name, from, to: microsNow() });
    return measured;
  };

  /**
   * Warms up with `load(seconds)`, then measures it while sampling each process's RSS and CPU;
   * prints and answers the figures (cpu: percent of one core per process, over the measured run).
   */
  ctx.measure = async (name, load) => {
    assertRunning();
    progress(`${name}: ${options.warmup} s warm-up + ${options.duration} s`);
    if (options.warmup > 0) await load(options.warmup);
    const { result, cpu, rss } = await sampled(name, () => load(options.duration));
    const row = { ...result, cpu, rss };
    progressRow(name, row);
    return row;
  };
  /** `request.amount` requests, measured from the first: no warm-up (a first pass over tokens). */
  ctx.pass = async (name, request) => {
    assertRunning();
    progress(`${name}: ${request.amount} requests`);
    const { result, cpu, rss } = await sampled(name, () =>
      httpLoad({ ...request, connections: options.connections }),
    );
    const row = { connections: options.connections, ...result, cpu, rss };
    progressRow(name, row);
    return row;
  };
  /**
   * With no warm-up, an HTTP load answers one request before it is measured: a cold first
   * request (argon2 on a new app's secret) is then not the measured second's only answer.
   */
  const answerOnce = (request) => httpLoad({ ...request, connections: 1, amount: 1 });
  ctx.load = async (name, request) => {
    if (options.warmup === 0) await answerOnce(request);
    return {
      connections: options.connections,
      ...(await ctx.measure(name, (seconds) =>
        httpLoad({ ...request, connections: options.connections }, seconds),
      )),
    };
  };
  /**
   * HTTP loads judged against each other (`[{ name, request }]`), measured in alternating slices
   * so that the machine's changing speed (a shared VM's hour) falls on all of them alike: each
   * warms up once, then each one's measured time is split into slices of about
   * COMPARE_SLICE_SECONDS, taken in turn, the order rotated every round. Answers one row per
   * load, as `ctx.load` does: requests per second over all its slices, CPU averaged over them,
   * peak RSS, the median slice's p50 and the worst slice's p99.
   * With no warm-up, each load still answers once first (answerOnce), so a cold first request
   * falls in no load's slice.
   */
  ctx.compare = async (loads) => {
    const run = (request, seconds) => httpLoad({ ...request, connections: options.connections }, seconds);
    for (const { name, request, prepare } of loads) {
      assertRunning();
      progress(`${name}: ${options.warmup} s warm-up`);
      await prepare?.(Math.max(options.warmup, 1));
      if (options.warmup > 0) await run(request, options.warmup);
      else await answerOnce(request);
    }
    const rounds = Math.max(1, Math.round(options.duration / COMPARE_SLICE_SECONDS));
    const slice = options.duration / rounds;
    progress(`measuring ${loads.length} loads in ${rounds} round(s) of ${slice} s each, in turn`);
    const slices = loads.map(() => []);
    for (let round = 0; round < rounds; round++) {
      for (let k = 0; k < loads.length; k++) {
        const i = (round + k) % loads.length;
        assertRunning();
        // Outside the measured time: what a load must have ready (pre-signed DPoP proofs).
        await loads[i].prepare?.(slice);
        slices[i].push(await sampled(loads[i].name, () => run(loads[i].request, slice)));
      }
    }
    return loads.map(({ name }, i) => {
      const row = combineSlices(slices[i]);
      progressRow(name, row);
      return { connections: options.connections, ...row };
    });
  };

  for (const id of options.scenarios) {
    if (id === 'limit') continue;
    assertRunning();
    rows.push(...(await scenarios[id](ctx)));
  }

  if (options.cpuProfDir) {
    // When each measured load ran, on the profiles' clock: profile-summary's --load.
    writeFileSync(join(options.cpuProfDir, 'loads.json'), JSON.stringify(profiledLoads, null, 2));
  }
  const memory = new Map(sampler.report().map((row) => [row.process, row]));
  const report = buildReport({
    rows,
    processes: processes.map((p) => ({ ...p, pid: sampler.pids()[p.process], ...memory.get(p.process) })),
    machine,
    settings: {
      quick: options.quick,
      duration: options.duration,
      warmup: options.warmup,
      connections: options.connections,
      revocations: options.revocations,
      tokens: options.tokens,
      scenarios: options.scenarios,
      database: ctx.platform?.database ?? 'none',
      // Those of the platforms beside the main one (--databases, and jobs' Postgres).
      otherDatabases: [...(ctx.databasePlatforms?.keys() ?? [])].filter((d) => d !== ctx.platform.database),
      peerVersion: require('oidc-provider/package.json').version,
    },
    conditions,
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
  });

  console.log(`\n${resultsTable(report)}\n`);
  console.log(`${cpuTable(report)}\n`);
  if (report.processes.length > 0) console.log(`${processesTable(report)}\n`);
  for (const bar of report.bars)
    console.log(`${bar.met ? 'met    ' : 'NOT MET'}  ${bar.name}: ${bar.value} (${bar.target})`);
  if (options.jsonOut) {
    writeJson(report, options.jsonOut);
    console.log(`\nwrote ${options.jsonOut}`);
  } else {
    for (const path of writeResults(report, RESULTS_DIR)) console.log(`wrote ${path}`);
  }
  return report;
}

let exitCode = 0;
try {
  const report = await main();
  if (!report.errorFree) {
    console.error('some requests failed: see the Errors column');
    exitCode = 1;
  }
} catch (error) {
  exitCode = 1;
  if (!interrupted()) {
    console.error(`benchmark failed: ${error.stack ?? error.message}`);
    keepLogs();
  }
} finally {
  progress('stopping every process the benchmark started');
  await cleanup();
}
process.exit(exitCode);
