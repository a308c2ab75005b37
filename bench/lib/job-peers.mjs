import { createRequire } from 'node:module';
import { percentile } from './load.mjs';
import { assertRunning } from './processes.mjs';

const require = createRequire(import.meta.url);

/**
 * The job queues the jobs scenario sets the platform's beside (issue 45), and the measurement
 * all of them go through. A queue here is
 * `{ name, start(onJob), submit(payload) -> accepted?, submitMany(payloads) -> accepted count,
 * completed() -> count, latencies() -> ms[], stop() }`:
 * `start` starts WORKERS workers whose handler does nothing but call `onJob(payload)`;
 * `completed` and `latencies` are the queue's own record of the jobs that ended (a job's
 * latency: from its submission to its completion, by the queue's clock where it keeps one).
 * Every queue's workers run in the harness's process, as the platform's SDK workers do.
 */
export const WORKERS = 4;
/** Submission calls in flight while a turn's jobs are submitted. */
const SUBMITTERS = 16;
/**
 * Jobs one submission call carries, in every queue alike (pg-boss's `insert`, graphile-worker's
 * `addJobs`, the platform's `POST .../jobs/batch`): producers with many jobs send them together.
 */
export const SUBMISSION_BATCH = 25;
export const JOB_TYPE = 'bench.echo';

/** About how long one turn of a queue lasts in `jobsInTurns` (3 turns in a full run, as ctx.compare). */
const TURN_SECONDS = 5;
const JOBS_TIMEOUT_MS = 120_000;
const START_TIMEOUT_MS = 10_000;

/**
 * pg-boss 10 (its own `work()` loop): WORKERS workers on one queue, each fetching up to
 * `batchSize` jobs a poll and completing them in one statement. pg-boss 10 polls only (no
 * LISTEN): a worker waits its polling interval (here its minimum, 0.5 s) after every fetch,
 * even one that found jobs, so a worker runs at most batchSize jobs per interval.
 */
export async function pgBossQueue(url, { batchSize }) {
  const PgBoss = require('pg-boss');
  const boss = new PgBoss({ connectionString: url, schedule: false });
  const failures = [];
  boss.on('error', (error) => failures.push(error));
  await boss.start();
  await boss.createQueue(JOB_TYPE);
  const sql = async (text) => (await boss.getDb().executeSql(text, [JOB_TYPE])).rows;
  return {
    name: batchSize === 1 ? 'pg-boss' : `pg-boss, batches of ${batchSize}`,
    async start(onJob) {
      for (let i = 0; i < WORKERS; i++) {
        await boss.work(JOB_TYPE, { batchSize, pollingIntervalSeconds: 0.5 }, async (jobs) => {
          for (const job of jobs) onJob(job.data);
        });
      }
    },
    submit: async (payload) => (await boss.send(JOB_TYPE, payload)) !== null,
    async submitMany(payloads) {
      await boss.insert(payloads.map((data) => ({ name: JOB_TYPE, data })));
      return payloads.length;
    },
    async completed() {
      if (failures.length > 0) throw new Error(`pg-boss: ${failures[0].message}`);
      const [{ count }] = await sql(
        `SELECT count(*) FROM pgboss.job WHERE name = $1 AND state = 'completed'`,
      );
      return Number(count);
    },
    async latencies() {
      const rows = await sql(
        `SELECT extract(epoch FROM completed_on - created_on) * 1000 AS ms
           FROM pgboss.job WHERE name = $1 AND state = 'completed'`,
      );
      return rows.map((row) => Number(row.ms));
    },
    stop: () => boss.stop({ graceful: true, wait: true, timeout: 10_000 }),
  };
}

/**
 * graphile-worker 0.17 with its defaults: one runner of WORKERS concurrent workers, woken by
 * LISTEN/NOTIFY, each taking one job at a time and completing it. It deletes a job when it
 * completes and keeps no end time, so a job's latency runs from its `created_at` to the end of
 * its handler (the `job:success` event), the completion's round trip short of the others'.
 */
export async function graphileWorkerQueue(url) {
  const { Logger, makeWorkerUtils, run } = require('graphile-worker');
  const { Pool } = require('pg');
  // Pools of its default size (10) that the harness owns, one for the workers, one for the
  // submissions, as it would make them: its own left a client that outlived the runner's stop.
  const pools = [0, 1].map(() =>
    new Pool({ connectionString: url, max: 10 })
      .on('error', () => {})
      .on('connect', (client) => client.on('error', () => {})),
  );
  // Its info lines (one per job) dropped: warnings and errors only.
  const logger = new Logger(() => (level, message) => {
    if (level === 'error' || level === 'warning') console.error(`graphile-worker: ${message}`);
  });
  const utils = await makeWorkerUtils({ pgPool: pools[1], logger });
  await utils.migrate();
  const latencies = [];
  let accepted = 0;
  let runner;
  return {
    name: 'graphile-worker',
    async start(onJob) {
      runner = await run({
        pgPool: pools[0],
        concurrency: WORKERS,
        noHandleSignals: true,
        logger,
        taskList: { [JOB_TYPE]: async (payload) => onJob(payload) },
      });
      runner.events.on('job:success', ({ job }) => latencies.push(Date.now() - job.created_at.getTime()));
    },
    async submit(payload) {
      await utils.addJob(JOB_TYPE, payload);
      accepted += 1;
      return true;
    },
    async submitMany(payloads) {
      const added = await utils.addJobs(payloads.map((payload) => ({ identifier: JOB_TYPE, payload })));
      accepted += added.length;
      return added.length;
    },
    async completed() {
      const { rows } = await utils.withPgClient((client) =>
        client.query('SELECT count(*) FROM graphile_worker._private_jobs'),
      );
      return accepted - Number(rows[0].count);
    },
    latencies: async () => [...latencies],
    async stop() {
      await runner?.stop();
      await utils.release();
      await Promise.all(pools.map((pool) => pool.end()));
    },
  };
}

/** A queue with its workers started, and what the harness saw of it. */
export async function started(queue) {
  const watched = { queue, ran: 0, accepted: 0, waiting: new Map() };
  await queue.start((payload) => {
    watched.ran += 1;
    watched.waiting.get(payload?.n)?.(performance.now());
  });
  return watched;
}

/**
 * `count` jobs through each queue (submitted by SUBMITTERS at once, run to completion), measured
 * in turns as ctx.compare measures loads: each queue's jobs cut into about one turn per
 * TURN_SECONDS of the run's duration, the order rotated every round, so that the machine's
 * changing speed falls on every queue alike. Answers a row per queue: jobs/s over its turns
 * (each from its first submission to its last completion), latency percentiles of all its jobs
 * (from `latencies()`), and each process's CPU averaged over its turns (`other`: Postgres here).
 */
export async function jobsInTurns(ctx, queues, count) {
  const rounds = Math.max(1, Math.round(ctx.options.duration / TURN_SECONDS));
  const perTurn = Math.ceil(count / rounds);
  const totals = queues.map(() => ({ jobs: 0, seconds: 0, errors: 0, cpu: {}, rss: {} }));
  ctx.progress(
    `  jobs: ${perTurn * rounds} per queue, ${rounds} turn(s) each, in turns: ${queues.map((q) => q.queue.name).join(', ')}`,
  );
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < queues.length; k++) {
      const i = (round + k) % queues.length;
      assertRunning();
      const { result, cpu, rss } = await ctx.sampler.during(turn(queues[i], perTurn));
      const total = totals[i];
      total.jobs += perTurn - result.errors;
      total.seconds += result.seconds;
      total.errors += result.errors;
      for (const [name, percent] of Object.entries(cpu))
        total.cpu[name] = (total.cpu[name] ?? 0) + percent * result.seconds;
      for (const [name, mib] of Object.entries(rss))
        total.rss[name] = Math.max(total.rss[name] ?? 0, mib ?? 0);
    }
  }
  return Promise.all(
    queues.map(async ({ queue, ran, accepted }, i) => {
      const { jobs, seconds, errors, cpu, rss } = totals[i];
      const latencies = (await queue.latencies()).sort((a, b) => a - b);
      const row = {
        connections: SUBMITTERS,
        rps: jobs / seconds,
        p50: percentile(latencies, 50),
        p99: percentile(latencies, 99),
        // A job that never ran, or ran twice, is an error as a refused submission is.
        errors: errors + Math.abs(accepted - ran) + Math.abs(latencies.length - accepted),
        cpu: Object.fromEntries(Object.entries(cpu).map(([name, sum]) => [name, Math.round(sum / seconds)])),
        rss,
        unit: 'jobs/s',
      };
      ctx.progress(
        `  ${queue.name}: ${Math.round(row.rps)} jobs/s, latency p50 ${row.p50} ms, p99 ${row.p99} ms, ${row.errors} errors`,
      );
      return row;
    }),
  );
}

/**
 * `jobs` submitted by SUBMITTERS callers at once, SUBMISSION_BATCH a call; resolves when the queue
 * has recorded every accepted one completed.
 */
async function turn(watched, jobs) {
  const { queue } = watched;
  const started = performance.now();
  const ranBefore = watched.ran;
  let next = 0;
  let errors = 0;
  await Promise.all(
    Array.from({ length: SUBMITTERS }, async () => {
      while (next < jobs) {
        const from = next;
        next = Math.min(jobs, next + SUBMISSION_BATCH);
        const payloads = Array.from({ length: next - from }, (_, i) => ({ n: from + i }));
        const accepted = await queue.submitMany(payloads);
        watched.accepted += accepted;
        errors += payloads.length - accepted;
      }
    }),
  );
  // The harness's own count first (no query while the workers run), then the queue's record.
  const expected = ranBefore + jobs - errors;
  while (watched.ran < expected) await pause(5, started, `${watched.ran - ranBefore} of ${jobs} ran`);
  while ((await queue.completed()) < watched.accepted)
    await pause(5, started, `${queue.name} did not record every job completed`);
  return { seconds: (performance.now() - started) / 1000, errors };
}

async function pause(ms, since, what) {
  if (performance.now() - since > JOBS_TIMEOUT_MS)
    throw new Error(`${what} within ${JOBS_TIMEOUT_MS / 1000} s`);
  assertRunning();
  await new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Submission to start with the workers idle: `count` jobs one at a time, each submitted after
 * a random pause of 50-550 ms (so it finds the workers waiting, and lands anywhere in a polling
 * queue's interval), timed from just before the submission to the start of its handler.
 */
export async function idleStart(watched, count) {
  const times = [];
  for (let i = 0; i < count; i++) {
    assertRunning();
    await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 500));
    const n = `idle-${i}`;
    const began = new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`${watched.queue.name}: an idle job did not start in ${START_TIMEOUT_MS} ms`)),
        START_TIMEOUT_MS,
      );
      watched.waiting.set(n, (at) => (clearTimeout(timer), resolve(at)));
    });
    const sent = performance.now();
    if (!(await watched.queue.submit({ n }))) throw new Error(`${watched.queue.name} refused a submission`);
    watched.accepted += 1;
    times.push((await began) - sent);
    watched.waiting.delete(n);
  }
  times.sort((a, b) => a - b);
  return {
    rps: null,
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    errors: 0,
    count,
  };
}
