import * as grpc from '@grpc/grpc-js';
import {
  createJobServiceClient,
  type JobLogPageResult,
  type JobResult,
  type JobServiceClient,
  type JobTransitionResult,
  type SubmitJobResult,
} from '@platform/grpc';
import { JobsClient, JobWorker, PermanentJobError, type PlatformClient } from '@platform/sdk';
import { EventSource } from 'eventsource';
import { identityOf, signIn } from '../../support/internal-consent';
import { serviceClient, untilJob } from '../../support/jobs';
import { adminToken, discover, registerApp } from '../../support/oauth';
import { unaryCall } from '../../support/grpc';
import { sharedPlatform, type TestPlatform } from '../../support/platform';

/**
 * Its own tenants, apps and job types on the shared platform: its workers claim by type, and it
 * lists and audits ACME's jobs.
 */
const ACME = 'jobs-lifecycle-acme';
const GLOBEX = 'jobs-lifecycle-globex';

/** Every message of a server stream, until it ends (or `timeoutMs`). */
function collect<T>(
  stream: grpc.ClientReadableStream<T>,
  timeoutMs = 15_000,
): Promise<{ messages: T[]; error: grpc.ServiceError | null }> {
  return new Promise((resolve) => {
    const messages: T[] = [];
    const timer = setTimeout(() => stream.cancel(), timeoutMs);
    stream.on('data', (message: T) => messages.push(message));
    stream.on('error', (error: grpc.ServiceError) => {
      clearTimeout(timer);
      resolve({ messages, error });
    });
    stream.on('end', () => {
      clearTimeout(timer);
      resolve({ messages, error: null });
    });
  });
}

describe('jobs: submit, run, watch, cancel, over REST and gRPC', () => {
  let platform: TestPlatform;
  let grpcJobs: JobServiceClient;
  let submitter: { client: PlatformClient; token: string };
  let jobs: JobsClient;
  let workerClient: PlatformClient;
  let reader: string;
  let outsider: string;
  let acmeViewer: string;
  const workers: JobWorker[] = [];

  /** Each test's worker runs its own job type. */
  const startWorker = (type: string, handler: ConstructorParameters<typeof JobWorker>[1]['handler']) => {
    const worker = new JobWorker(workerClient, { types: [type], handler, leaseSeconds: 6 });
    worker.start();
    workers.push(worker);
    return worker;
  };

  beforeAll(async () => {
    platform = sharedPlatform();
    const as = await discover(platform);
    const admin = await adminToken(as, platform);
    const made = await serviceClient(platform.baseUrl, admin, platform, 'lifecycle-scheduler', [
      'jobs.read',
      'jobs.write',
    ]);
    submitter = {
      client: made.client,
      token: await (made.client as unknown as { tokens: { getToken(): Promise<string> } }).tokens.getToken(),
    };
    jobs = new JobsClient(made.client);
    workerClient = (
      await serviceClient(platform.baseUrl, admin, platform, 'lifecycle-renderer', ['jobs.work'])
    ).client;
    const token = async (clientId: string, scopes: string[]) =>
      (await serviceClient(platform.baseUrl, admin, platform, clientId, scopes)).token();
    reader = await token('lifecycle-dashboard', ['jobs.read']);
    outsider = await token('lifecycle-thumbnailer', ['files.read']);
    const portal = await registerApp(platform, admin, {
      client_id: 'lifecycle-portal',
      app_type: 'web',
      declared_scopes: ['jobs.read', 'jobs.write'],
      redirect_uris: ['http://127.0.0.1:9/jobs-lifecycle/callback'],
    });
    acmeViewer = (await signIn(platform, portal, { identity: identityOf('lifecycle-vic', ACME, ['viewer']) }))
      .tokens.access_token;
    grpcJobs = createJobServiceClient(platform.sidecarAddress);
  });
  afterAll(async () => {
    for (const worker of workers) await worker.stop();
    grpcJobs?.close();
  });

  const submitOverGrpc = (request: Record<string, unknown>) =>
    unaryCall<SubmitJobResult>((metadata, options, done) =>
      grpcJobs.SubmitJob({ token: submitter.token, tenant: ACME, ...request }, metadata, options, done),
    );
  const rest = (token: string, method: string, path: string, body?: unknown) =>
    fetch(`${platform.baseUrl}/api/v1${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body !== undefined && { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  it('runs a job submitted over gRPC: WatchJob streams every state to the end, logs and output follow', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    startWorker('lifecycle.report.render', async (payload, context) => {
      await context.log(`rendering ${(payload as { month: string }).month}`);
      await gate;
      await context.log('rendered 3 pages');
      return { pages: 3 };
    });
    const { error, response } = await submitOverGrpc({
      type: 'lifecycle.report.render',
      payload_json: JSON.stringify({ month: '2026-11' }),
    });
    expect(error).toBeNull();
    expect(response).toMatchObject({
      created: true,
      job: { state: 'QUEUED', type: 'lifecycle.report.render', tenant: ACME, done: false },
    });
    const id = response.job!.id;

    const watch = collect<JobTransitionResult>(grpcJobs.WatchJob({ token: reader, tenant: ACME, id }));
    const logs = collect<JobLogPageResult>(
      grpcJobs.GetJobLogs({ token: reader, tenant: ACME, id, follow: true }),
    );
    await untilJob(jobs, ACME, id, (job) => job.state === 'RUNNING');
    const early = await unaryCall<JobResult>((m, o, done) =>
      grpcJobs.GetJobOutput({ token: reader, tenant: ACME, id }, m, o, done),
    );
    expect(early.error?.code).toBe(grpc.status.FAILED_PRECONDITION);
    release();

    const watched = await watch;
    expect(watched.error).toBeNull();
    const states = watched.messages.map((t) => t.state);
    expect(states.at(-1)).toBe('SUCCEEDED');
    expect(['QUEUED', 'RUNNING']).toContain(states[0]);
    const followed = await logs;
    expect(followed.error).toBeNull();
    expect(followed.messages.flatMap((page) => page.lines.map((l) => l.line))).toEqual([
      'rendering 2026-11',
      'rendered 3 pages',
    ]);
    expect(followed.messages.at(-1)?.done).toBe(true);

    const output = await unaryCall<JobResult>((m, o, done) =>
      grpcJobs.GetJobOutput({ token: reader, tenant: ACME, id }, m, o, done),
    );
    expect(output.response).toMatchObject({ state: 'SUCCEEDED', done: true, attempt: 1, worker: '' });
    expect(JSON.parse(output.response.output_json)).toEqual({ pages: 3 });
  });

  it('submits idempotently over REST, lists, and answers the first job for the same key', async () => {
    const body = {
      type: 'lifecycle.invoice.run',
      payload: { period: '2026-11' },
      idempotency_key: 'invoice-2026-11',
    };
    const first = await rest(submitter.token, 'POST', `/tenants/${ACME}/jobs`, body);
    const again = await rest(submitter.token, 'POST', `/tenants/${ACME}/jobs`, body);
    expect([first.status, again.status]).toEqual([201, 200]);
    const [a, b] = [(await first.json()) as { id: string }, (await again.json()) as { id: string }];
    expect(b.id).toBe(a.id);
    const other = await rest(submitter.token, 'POST', `/tenants/${ACME}/jobs`, {
      ...body,
      payload: { period: '2026-12' },
    });
    expect(other.status).toBe(409);

    const page = await jobs.list(ACME, { type: 'lifecycle.invoice.run' });
    expect(page.jobs.map((j) => j.id)).toEqual([a.id]);
    const grpcAgain = await submitOverGrpc({
      type: 'lifecycle.invoice.run',
      payload_json: JSON.stringify(body.payload),
      idempotency_key: body.idempotency_key,
    });
    expect(grpcAgain.response).toMatchObject({ created: false, job: { id: a.id } });
    const listed = await unaryCall<{ jobs: JobResult[] }>((m, o, done) =>
      grpcJobs.ListJobs({ token: reader, tenant: ACME, type: 'lifecycle.invoice.run' }, m, o, done),
    );
    expect(listed.response.jobs.map((j) => j.id)).toEqual([a.id]);
  });

  it('cancels a queued job at once and a running one through its worker', async () => {
    const queued = await jobs.submit(ACME, { type: 'lifecycle.nobody.runs.this', payload: null });
    await expect(jobs.cancel(ACME, queued.id)).resolves.toMatchObject({ state: 'CANCELLED', done: true });

    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    startWorker('lifecycle.video.encode', async (_payload, context) => {
      started();
      await new Promise((resolve) => context.signal.addEventListener('abort', resolve));
      throw context.signal.reason;
    });
    const job = await jobs.submit(ACME, { type: 'lifecycle.video.encode', payload: { file: 'a.mp4' } });
    await running;
    const cancelling = await unaryCall<JobResult>((m, o, done) =>
      grpcJobs.CancelJob({ token: submitter.token, tenant: ACME, id: job.id }, m, o, done),
    );
    expect(cancelling.response.state).toBe('CANCELLING');
    const ended = await untilJob(jobs, ACME, job.id, (j) => j.done);
    expect(ended).toMatchObject({ state: 'CANCELLED', error: { code: 'cancelled' } });
    const late = await unaryCall<JobResult>((m, o, done) =>
      grpcJobs.CancelJob({ token: submitter.token, tenant: ACME, id: job.id }, m, o, done),
    );
    expect(late.error?.code).toBe(grpc.status.FAILED_PRECONDITION);
  });

  it('retries a failing job with backoff and fails it for good on a permanent error', async () => {
    let calls = 0;
    startWorker('lifecycle.flaky.task', async () => {
      calls += 1;
      if (calls === 1) throw new Error('connection reset');
      throw new PermanentJobError('the input is invalid');
    });
    const job = await jobs.submit(ACME, {
      type: 'lifecycle.flaky.task',
      payload: null,
      max_attempts: 5,
      initial_backoff_seconds: 0,
    });
    const ended = await untilJob(jobs, ACME, job.id, (j) => j.done);
    expect(ended).toMatchObject({
      state: 'FAILED',
      attempt: 2,
      error: { code: 'worker_error', message: 'the input is invalid' },
    });
    const { transitions } = await jobs.transitions(ACME, job.id);
    expect(transitions.map((t) => t.state)).toEqual(['QUEUED', 'RUNNING', 'QUEUED', 'RUNNING', 'FAILED']);
  });

  it('follows a job’s logs over REST Server-Sent Events until it ends', async () => {
    startWorker('lifecycle.log.spam', async (_payload, context) => {
      for (let i = 1; i <= 3; i += 1) await context.log(`line ${i}`);
      return null;
    });
    const job = await jobs.submit(ACME, { type: 'lifecycle.log.spam', payload: null });
    const lines: string[] = [];
    await new Promise<void>((resolve, reject) => {
      const source = new EventSource(`${platform.baseUrl}/api/v1/tenants/${ACME}/jobs/${job.id}/logs`, {
        fetch: (input, init) =>
          fetch(input, { ...init, headers: { ...init?.headers, authorization: `Bearer ${reader}` } }),
      });
      const timer = setTimeout(() => reject(new Error(`only ${lines.length} lines`)), 15_000);
      source.addEventListener('job_log', (event) =>
        lines.push((JSON.parse(event.data) as { line: string }).line),
      );
      source.onerror = () => {
        // The server ended the stream once the job ended: stop here rather than reconnect.
        source.close();
        clearTimeout(timer);
        resolve();
      };
    });
    expect(lines).toEqual(['line 1', 'line 2', 'line 3']);
  });

  it('enforces jobs.read, jobs.write, jobs.work and the tenant; bad input is 400', async () => {
    expect((await rest(outsider, 'GET', `/tenants/${ACME}/jobs`)).status).toBe(403);
    expect((await rest(reader, 'POST', `/tenants/${ACME}/jobs`, { type: 'x.y', payload: null })).status).toBe(
      403,
    );
    expect((await rest(submitter.token, 'POST', '/jobs/claim', { types: ['x.y'] })).status).toBe(403);
    for (const [path, body] of [
      [`/tenants/${ACME}/jobs/batch`, { jobs: [{ type: 'x.y' }] }],
      ['/jobs/claims', { types: ['x.y'] }],
      ['/jobs/completions', { completions: [{ id: 'x', lease_id: 'y', outcome: 'succeeded' }] }],
    ] as const) {
      expect({ path, status: (await rest(outsider, 'POST', path, body)).status }).toEqual({
        path,
        status: 403,
      });
    }
    expect((await rest(acmeViewer, 'GET', `/tenants/${ACME}/jobs`)).status).toBe(200);
    expect((await rest(acmeViewer, 'GET', `/tenants/${GLOBEX}/jobs`)).status).toBe(403);
    expect((await rest(reader, 'GET', `/tenants/${ACME}/jobs/0000nope`)).status).toBe(404);
    for (const body of [
      { type: 'Bad Type', payload: null },
      { type: 'x.y', timeout_seconds: 0 },
      { type: 'x.y', max_attempts: 99 },
      {},
    ]) {
      const response = await rest(submitter.token, 'POST', `/tenants/${ACME}/jobs`, body);
      expect({ body, status: response.status }).toEqual({ body, status: 400 });
    }
    const cases: Array<[Record<string, unknown>, grpc.status]> = [
      [{ token: outsider, tenant: ACME, type: 'x.y' }, grpc.status.PERMISSION_DENIED],
      [{ token: 'not-a-token', tenant: ACME, type: 'x.y' }, grpc.status.UNAUTHENTICATED],
      [{ token: submitter.token, type: 'x.y' }, grpc.status.INVALID_ARGUMENT],
      [
        { token: submitter.token, tenant: ACME, type: 'x.y', payload_json: '{nope' },
        grpc.status.INVALID_ARGUMENT,
      ],
      [{ token: acmeViewer, tenant: GLOBEX, type: 'x.y' }, grpc.status.PERMISSION_DENIED],
    ];
    for (const [request, code] of cases) {
      const { error } = await unaryCall<SubmitJobResult>((m, o, done) =>
        grpcJobs.SubmitJob(request, m, o, done),
      );
      expect({ request: request.payload_json ?? request.tenant, code: error?.code }).toEqual({
        request: request.payload_json ?? request.tenant,
        code,
      });
    }
    const missing = await unaryCall<JobResult>((m, o, done) =>
      grpcJobs.GetJob({ token: reader, tenant: ACME, id: '0000nope' }, m, o, done),
    );
    expect(missing.error?.code).toBe(grpc.status.NOT_FOUND);
  });

  it('submits several jobs in one call, each judged alone, and refuses a batch to those who may not submit', async () => {
    const type = 'lifecycle.batch.submitted';
    const earlier = await jobs.submit(ACME, { type, payload: { n: 0 }, idempotency_key: 'batch-used' });
    const results = await jobs.submitMany(ACME, [
      { type, payload: { n: 1 } },
      { type: 'Not A Type', payload: null },
      { type, payload: { n: 0 }, idempotency_key: 'batch-used' },
      { type, payload: { n: 9 }, idempotency_key: 'batch-used' },
    ]);

    expect(results.map((r) => r.refused?.status ?? r.created)).toEqual([true, 400, false, 409]);
    expect(results[2].job?.id).toBe(earlier.id);
    await expect(jobs.get(ACME, results[0].job!.id)).resolves.toMatchObject({
      state: 'QUEUED',
      payload: { n: 1 },
    });
    expect((await rest(reader, 'POST', `/tenants/${ACME}/jobs/batch`, { jobs: [{ type }] })).status).toBe(
      403,
    );
    expect(
      (await rest(acmeViewer, 'POST', `/tenants/${GLOBEX}/jobs/batch`, { jobs: [{ type }] })).status,
    ).toBe(403);
    for (const body of [
      { jobs: [] },
      { jobs: Array.from({ length: 101 }, () => ({ type })) },
      { jobs: [{}] },
    ]) {
      const response = await rest(submitter.token, 'POST', `/tenants/${ACME}/jobs/batch`, body);
      expect({ size: body.jobs.length, status: response.status }).toEqual({
        size: body.jobs.length,
        status: 400,
      });
    }
  });

  it('claims several jobs in one call and reports several in one, each report judged alone', async () => {
    const as = await discover(platform);
    const admin = await adminToken(as, platform);
    const token = async (clientId: string) =>
      (await serviceClient(platform.baseUrl, admin, platform, clientId, ['jobs.work'])).token();
    const [batcher, other] = [await token('lifecycle-batcher'), await token('lifecycle-other-worker')];
    const type = 'lifecycle.batch.task';
    const submitted: string[] = [];
    for (let n = 0; n < 3; n++) submitted.push((await jobs.submit(ACME, { type, payload: { n } })).id);
    const claim = async (max_jobs: number) => {
      const response = await rest(batcher, 'POST', '/jobs/claims', { types: [type], max_jobs });
      expect(response.status).toBe(200);
      return (
        (await response.json()) as { jobs: Array<{ id: string; attempt: number; lease: { id: string } }> }
      ).jobs;
    };

    const first = await claim(2);
    expect(first.map((j) => j.id)).toEqual(submitted.slice(0, 2));
    expect(first[0].lease.id).not.toBe(first[1].lease.id);
    const [last] = await claim(5);
    expect(last.id).toBe(submitted[2]);
    expect(await claim(5)).toEqual([]);

    const report = (id: string, lease_id: string, outcome = 'succeeded') => ({ id, lease_id, outcome });
    const completions = [
      { ...report(first[0].id, first[0].lease.id), output: { n: 0 } },
      report(first[1].id, 'not-its-lease'),
      report(last.id, last.lease.id, 'failed'),
      report('0000nope', 'x'),
    ];
    expect((await rest(other, 'POST', '/jobs/completions', { completions })).status).toBe(200);
    const response = await rest(batcher, 'POST', '/jobs/completions', { completions });
    expect(response.status).toBe(200);
    const { results } = (await response.json()) as {
      results: Array<{ id: string; state?: string; refused?: { status: number } }>;
    };
    expect(results.map((r) => r.state ?? r.refused?.status)).toEqual(['SUCCEEDED', 409, 'QUEUED', 404]);
    await expect(jobs.get(ACME, first[0].id)).resolves.toMatchObject({
      state: 'SUCCEEDED',
      output: { n: 0 },
    });
    await expect(jobs.get(ACME, first[1].id)).resolves.toMatchObject({ state: 'RUNNING' });
    await expect(jobs.get(ACME, last.id)).resolves.toMatchObject({ state: 'QUEUED', attempt: 1 });
    // Another worker holding no lease on them was refused each (above, before the holder's reports).
    const stolen = await rest(other, 'POST', '/jobs/completions', {
      completions: [report(first[1].id, first[1].lease.id)],
    });
    expect(((await stolen.json()) as { results: unknown[] }).results).toEqual([
      { id: first[1].id, refused: { status: 403, detail: expect.stringContaining('another worker') } },
    ]);

    expect((await rest(submitter.token, 'POST', '/jobs/claims', { types: [type] })).status).toBe(403);
    expect((await rest(submitter.token, 'POST', '/jobs/completions', { completions })).status).toBe(403);
    for (const [path, body] of [
      ['/jobs/claims', { types: [type], max_jobs: 0 }],
      ['/jobs/claims', { types: [type], max_jobs: 101 }],
      ['/jobs/completions', { completions: [] }],
      ['/jobs/completions', { completions: Array.from({ length: 101 }, () => report('a', 'b')) }],
      ['/jobs/completions', { completions: [{ ...report('a', 'b'), outcome: 'maybe' }] }],
    ] as const) {
      const refused = await rest(batcher, 'POST', path, body);
      expect({ path, status: refused.status }).toEqual({ path, status: 400 });
    }
  });

  it('runs up to `concurrency` jobs at once in one worker, every one to SUCCEEDED', async () => {
    const type = 'lifecycle.parallel.task';
    let running = 0;
    let most = 0;
    const worker = new JobWorker(workerClient, {
      types: [type],
      concurrency: 4,
      handler: async (payload) => {
        most = Math.max(most, ++running);
        await new Promise((resolve) => setTimeout(resolve, 300));
        running--;
        return payload;
      },
    });
    const submitted = await Promise.all(
      Array.from({ length: 10 }, (_, n) => jobs.submit(ACME, { type, payload: { n } })),
    );
    worker.start();
    workers.push(worker);
    for (const job of submitted) {
      await expect(untilJob(jobs, ACME, job.id, (j) => j.done)).resolves.toMatchObject({
        state: 'SUCCEEDED',
        output: job.payload,
      });
    }
    expect(most).toBe(4);
  });

  it('lets go of a worker that leaves while its claim waits: the next claim gets the job, its first attempt', async () => {
    const as = await discover(platform);
    const admin = await adminToken(as, platform);
    const token = await (
      await serviceClient(platform.baseUrl, admin, platform, 'lifecycle-leaver', ['jobs.work'])
    ).token();
    const claim = (signal?: AbortSignal) =>
      fetch(`${platform.baseUrl}/api/v1/jobs/claim`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ types: ['lifecycle.leaver.task'], wait_seconds: 5, lease_seconds: 60 }),
        signal,
      });
    const leaving = new AbortController();
    const left = claim(leaving.signal).catch(() => 'aborted');
    await new Promise((resolve) => setTimeout(resolve, 300));
    leaving.abort();
    await expect(left).resolves.toBe('aborted');
    // The control plane lets the abandoned wait go within its 250 ms poll.
    await new Promise((resolve) => setTimeout(resolve, 500));

    const job = await jobs.submit(ACME, { type: 'lifecycle.leaver.task', payload: {} });
    const started = Date.now();
    const response = await claim();
    expect(response.status).toBe(200);
    // Before, the abandoned wait took the job for nobody: 60 s of lease, then attempt 2.
    expect(await response.json()).toMatchObject({ id: job.id, attempt: 1 });
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('audits submissions, cancellations and completions in the tenant’s log', async () => {
    const response = await rest(reader, 'GET', `/audit/records?tenant=${ACME}&limit=1000`);
    expect(response.status).toBe(403);
    const admin = await adminToken(await discover(platform), platform);
    const { records } = (await (
      await rest(admin, 'GET', `/audit/records?tenant=${ACME}&limit=1000`)
    ).json()) as {
      records: Array<{ action: string; actor: { id: string } }>;
    };
    const actions = new Set(records.map((r) => `${r.action} by ${r.actor.id}`));
    for (const expected of [
      'job.submitted by lifecycle-scheduler',
      'job.cancel_requested by lifecycle-scheduler',
      'job.attempt_succeeded by lifecycle-renderer',
      'job.attempt_failed by lifecycle-renderer',
    ]) {
      expect(actions).toContain(expected);
    }
  });
});
