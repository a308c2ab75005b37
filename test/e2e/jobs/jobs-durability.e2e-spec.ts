import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { type Job, JobsClient, JobWorker, type PlatformClient } from '@platform/sdk';
import { serviceClient, untilJob } from '../../support/jobs';
import { adminToken, discover, registerApp } from '../../support/oauth';
import {
  startBackendReplica,
  startControlPlaneReplica,
  startPlatform,
  type TestPlatform,
} from '../../support/platform';
import { createScratchDatabase, describeOnPostgres, type ScratchDatabase } from '../../support/postgres';

const WORKER_SCRIPT = join(__dirname, '..', '..', 'support', 'job-worker-process.cjs');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function spawnWorker(env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, [WORKER_SCRIPT], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [chunk] = (await once(child.stdout!, 'data')) as [Buffer];
  if (!chunk.toString().includes('ready')) throw new Error(`the worker said ${chunk.toString()}`);
  return child;
}

describe('jobs across a kill -9 of a worker and of the control plane', () => {
  let platform: TestPlatform;
  let jobs: JobsClient;
  let workerApp: { client: PlatformClient; clientId: string; clientSecret: string };
  const workers: JobWorker[] = [];

  beforeAll(async () => {
    platform = await startPlatform();
    const admin = await adminToken(await discover(platform), platform);
    jobs = new JobsClient(
      (await serviceClient(platform.baseUrl, admin, platform, 'scheduler', ['jobs.read', 'jobs.write']))
        .client,
    );
    const app = await registerApp(platform, admin, {
      client_id: 'batch-worker',
      declared_scopes: ['jobs.work'],
    });
    const made = await serviceClient(platform.baseUrl, admin, platform, 'batch-worker-2', ['jobs.work']);
    workerApp = { client: made.client, clientId: app.client_id, clientSecret: app.client_secret! };
  });
  afterAll(async () => {
    for (const worker of workers) await worker.stop();
    await platform?.stop();
  });

  it('takes a job back from a worker killed mid-job when its lease runs out, and another attempt finishes it', async () => {
    const job = await jobs.submit('acme', {
      type: 'slow.task',
      payload: { ms: 60_000 },
      initial_backoff_seconds: 0,
    });
    const doomed = await spawnWorker({
      BASE_URL: platform.baseUrl,
      CLIENT_ID: workerApp.clientId,
      CLIENT_SECRET: workerApp.clientSecret,
      TYPES: 'slow.task',
      LEASE_SECONDS: '5',
    });
    const running = await untilJob(jobs, 'acme', job.id, (j) => j.state === 'RUNNING');
    expect(running).toMatchObject({ attempt: 1, worker: 'batch-worker' });
    while ((await jobs.logs('acme', job.id)).lines.length === 0) await sleep(50);
    doomed.kill('SIGKILL');
    await once(doomed, 'exit');

    const rescuer = new JobWorker(workerApp.client, {
      types: ['slow.task'],
      leaseSeconds: 5,
      handler: async () => ({ rescued: true }),
    });
    rescuer.start();
    workers.push(rescuer);
    const done = await untilJob(jobs, 'acme', job.id, (j) => j.done, 20_000);

    expect(done).toMatchObject({ state: 'SUCCEEDED', attempt: 2, output: { rescued: true } });
    const { transitions } = await jobs.transitions('acme', job.id);
    expect(transitions.map((t) => `${t.state}@${t.attempt}`)).toEqual([
      'QUEUED@0',
      'RUNNING@1',
      'QUEUED@1',
      'RUNNING@2',
      'SUCCEEDED@2',
    ]);
    const { lines } = await jobs.logs('acme', job.id);
    expect(lines.map((l) => `${l.attempt}: ${l.line}`)).toEqual([`1: started by ${doomed.pid}`]);
  }, 40_000);

  it('loses no job, queued or running, when the control plane is killed and restarted', async () => {
    const acknowledged: string[] = [];
    const submit = async (n: number) => {
      try {
        acknowledged.push(
          (await jobs.submit('acme', { type: 'batch.item', payload: { n }, idempotency_key: `batch-${n}` }))
            .id,
        );
      } catch {
        // Not acknowledged (the control plane was down): the caller would retry with the key.
      }
    };
    for (let n = 0; n < 20; n += 1) await submit(n);
    const ran = new Map<string, number>();
    const worker = new JobWorker(workerApp.client, {
      types: ['batch.item'],
      concurrency: 4,
      leaseSeconds: 5,
      onError: () => undefined,
      handler: async (_payload, context) => {
        ran.set(context.job.id, (ran.get(context.job.id) ?? 0) + 1);
        await sleep(300);
        return { ok: true };
      },
    });
    worker.start();
    workers.push(worker);
    await sleep(700);

    await platform.killProcess('control-plane');
    for (let n = 20; n < 25; n += 1) await submit(n);
    await platform.restartProcess('control-plane');
    for (let n = 25; n < 30; n += 1) await submit(n);
    // Whatever a caller was not told, it submits again under the same key: never a second job.
    for (let n = 0; n < 30; n += 1) await submit(n);

    const unique = [...new Set(acknowledged)];
    for (const id of unique) await untilJob(jobs, 'acme', id, (j) => j.done, 30_000);
    const finished = await Promise.all(unique.map((id) => jobs.get('acme', id)));
    expect(finished.filter((j: Job) => j.state !== 'SUCCEEDED')).toEqual([]);
    expect(unique).toHaveLength(30);
    const listed = await jobs.list('acme', { type: 'batch.item', limit: 1000 });
    expect(listed.jobs).toHaveLength(30);
    // At least once: a job running at the kill may have run again after its lease ran out.
    for (const id of unique) expect(ran.get(id)).toBeGreaterThanOrEqual(1);
  }, 90_000);
});

describeOnPostgres('jobs with 4 workers on 2 control planes', () => {
  let platform: TestPlatform;
  let database: ScratchDatabase;
  let secondBaseUrl: string;
  const stops: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    database = await createScratchDatabase();
    platform = await startPlatform({ databaseUrl: database.url });
    const replica = await startControlPlaneReplica(platform);
    stops.push(replica.stop);
    const edge = await startBackendReplica(platform, { CONTROL_PLANE_URL: replica.url });
    stops.push(edge.stop);
    secondBaseUrl = edge.baseUrl;
  }, 60_000);
  afterAll(async () => {
    for (const stop of stops.reverse()) await stop();
    await platform?.stop();
    await database?.drop();
  });

  it('never runs one job twice at once, and runs each once when no lease runs out', async () => {
    const admin = await adminToken(await discover(platform), platform);
    const jobs = new JobsClient(
      (await serviceClient(platform.baseUrl, admin, platform, 'scheduler', ['jobs.read', 'jobs.write']))
        .client,
    );
    const running = new Set<string>();
    const overlaps: string[] = [];
    const runs = new Map<string, string[]>();
    const workers: JobWorker[] = [];
    for (const [index, baseUrl] of [
      platform.baseUrl,
      platform.baseUrl,
      secondBaseUrl,
      secondBaseUrl,
    ].entries()) {
      const { client } = await serviceClient(baseUrl, admin, platform, `pg-worker-${index}`, ['jobs.work']);
      const worker = new JobWorker(client, {
        types: ['pg.item'],
        concurrency: 2,
        leaseSeconds: 10,
        handler: async (_payload, context) => {
          const id = context.job.id;
          if (running.has(id)) overlaps.push(id);
          running.add(id);
          runs.set(id, [...(runs.get(id) ?? []), `worker-${index}`]);
          await sleep(5);
          running.delete(id);
          return null;
        },
      });
      worker.start();
      workers.push(worker);
    }
    const submitted = await Promise.all(
      Array.from({ length: 200 }, (_, n) => jobs.submit('acme', { type: 'pg.item', payload: { n } })),
    );
    for (const job of submitted) await untilJob(jobs, 'acme', job.id, (j) => j.done, 60_000);
    await Promise.all(workers.map((w) => w.stop()));

    expect(overlaps).toEqual([]);
    expect([...runs.values()].filter((ran) => ran.length !== 1)).toEqual([]);
    expect(runs.size).toBe(200);
    const byEdge = [...runs.values()].flat();
    expect(byEdge.some((w) => w === 'worker-0' || w === 'worker-1')).toBe(true);
    expect(byEdge.some((w) => w === 'worker-2' || w === 'worker-3')).toBe(true);
  }, 120_000);
});
