import { connect, type Socket } from 'node:net';
import * as grpc from '@grpc/grpc-js';
import { createAuthServiceClient, INTERNAL_TOKEN_METADATA } from '@platform/grpc';
import { JobsClient, JobWorker, PlatformError } from '@platform/sdk';
import { serviceClient, untilJob } from '../../support/jobs';
import { adminToken, basic, discover, postForm } from '../../support/oauth';
import { startPlatform, type TestPlatform } from '../../support/platform';
import { closedWithin, openSse } from '../../support/sse';

/** Liveness, readiness and the drain at SIGTERM, on the built processes. */
describe('probes and graceful shutdown', () => {
  let platform: TestPlatform;
  const DRAIN_MS = 1_500;

  beforeAll(async () => {
    platform = await startPlatform({ env: { SHUTDOWN_DRAIN_MS: String(DRAIN_MS) } });
  });
  afterAll(async () => platform?.stop());

  const within = (promise: Promise<unknown>, ms: number) =>
    Promise.race([
      promise,
      new Promise((_, reject) => setTimeout(() => reject(new Error(`not done within ${ms} ms`)), ms).unref()),
    ]);
  const until = async (ready: () => Promise<boolean>) => {
    for (const deadline = Date.now() + 10_000; !(await ready());) {
      if (Date.now() > deadline) throw new Error('not ready within 10 s');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  const status = (url: string) =>
    fetch(url, { signal: AbortSignal.timeout(2_000) }).then(
      async (r) => ({ code: r.status, body: (await r.json()) as { status: string } }),
      () => ({ code: 0, body: { status: 'refused' } }),
    );

  it('answers liveness and readiness on every process', async () => {
    const sidecarHealth = `http://127.0.0.1:${platform.env.SIDECAR_HEALTH_PORT}`;
    for (const base of [platform.baseUrl, platform.controlPlaneUrl, sidecarHealth]) {
      await expect(status(`${base}/livez`)).resolves.toEqual({ code: 200, body: { status: 'ok' } });
      await expect(status(`${base}/readyz`)).resolves.toEqual({ code: 200, body: { status: 'ok' } });
    }
  });

  it('says the backend is not ready without its sidecar, while still alive', async () => {
    await platform.stopProcess('sidecar');
    try {
      await expect(status(`${platform.baseUrl}/readyz`)).resolves.toEqual({
        code: 503,
        body: { status: 'unavailable' },
      });
      await expect(status(`${platform.baseUrl}/livez`)).resolves.toEqual({
        code: 200,
        body: { status: 'ok' },
      });
    } finally {
      await platform.restartProcess('sidecar');
    }
  });

  it('is ready again after a sidecar restart only once tokens validate through it', async () => {
    const admin = await adminToken(await discover(platform), platform);
    const me = () =>
      fetch(`${platform.baseUrl}/v1/me`, { headers: { authorization: `Bearer ${admin}` } }).then(
        (r) => r.status,
      );
    await platform.stopProcess('sidecar');
    await platform.restartProcess('sidecar');
    // Each time the backend says it is ready, a token it has not seen must validate (the
    // validation cache was cleared when the stream from the old sidecar broke).
    const seen: Array<{ ready: number; me: number }> = [];
    for (const deadline = Date.now() + 5_000; Date.now() < deadline;) {
      const ready = (await status(`${platform.baseUrl}/readyz`)).code;
      if (ready === 200) seen.push({ ready, me: await me() });
      if (seen.length >= 10) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(seen.length).toBe(10);
    expect(seen.filter((s) => s.me !== 200)).toEqual([]);
  });

  it('at SIGTERM flips readiness first and keeps serving through the drain, failing no request', async () => {
    const seen: Array<{ at: number; ready: number; ping: number; token: number }> = [];
    // A route the control plane answers: the drain needs the backend's way to it too.
    const token = () =>
      postForm(
        `${platform.baseUrl}/v1/oauth/token`,
        { grant_type: 'client_credentials' },
        { authorization: basic(platform.admin.clientId, platform.admin.clientSecret) },
      ).then(
        (r) => r.status,
        () => 0,
      );
    let polling = true;
    const poll = (async () => {
      while (polling) {
        const [ready, ping, issued] = await Promise.all([
          status(`${platform.baseUrl}/readyz`),
          status(`${platform.baseUrl}/v1/ping`),
          token(),
        ]);
        seen.push({ at: Date.now(), ready: ready.code, ping: ping.code, token: issued });
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const stopped = Date.now();
    await platform.stopProcess('backend'); // SIGTERM, until it exits
    polling = false;
    await poll;

    // Answered within the drain; once the server closes, a request may find the connection gone.
    const during = seen.filter((s) => s.at > stopped + 100 && s.at < stopped + DRAIN_MS && s.ready === 503);
    // Not ready, yet still answering: the drain.
    expect(during.length).toBeGreaterThan(5);
    expect(during.filter((s) => s.ping !== 200 || s.token !== 200)).toEqual([]);
    // Never an error answer: 200 until the process has gone (then the connection is refused).
    expect(seen.filter((s) => ![200, 0].includes(s.ping) || ![200, 0].includes(s.token))).toEqual([]);
    // Readiness went first: the first sample that was not ready still got its ping answered.
    const firstUnready = seen.find((s) => s.ready !== 200);
    expect(firstUnready).toMatchObject({ ready: 503, ping: 200 });
    await platform.restartProcess('backend');
  }, 30_000);

  it('exits right after the drain though a job worker is long-polling and clients keep connections open', async () => {
    const admin = await adminToken(await discover(platform), platform);
    const { client } = await serviceClient(platform.baseUrl, admin, platform, 'lifecycle-worker', [
      'jobs.work',
    ]);
    const errors: unknown[] = [];
    const worker = new JobWorker(client, {
      types: ['lifecycle.none'],
      concurrency: 2,
      handler: async () => ({}),
      onError: (error) => errors.push(error),
    });
    worker.start();
    // Let both claims reach the control plane and wait there.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(errors).toEqual([]);

    const stopped = Date.now();
    await platform.stopProcess('backend'); // SIGTERM, until it exits (SIGKILL after 5 s)
    const took = Date.now() - stopped;
    await worker.stop();
    await platform.restartProcess('backend');
    // The long polls were ended at close, and connections idle after their last answer were
    // closed: neither held the exit (a keep-alive connection alone would for 72 s).
    expect(took).toBeLessThan(DRAIN_MS + 2_000);
  }, 30_000);

  it('ends its sidecars’ feed streams and the claims waiting at the control plane when it closes, so it too exits right after the drain', async () => {
    const admin = await adminToken(await discover(platform), platform);
    const { token } = await serviceClient(platform.baseUrl, admin, platform, 'lifecycle-claimer', [
      'jobs.work',
    ]);
    const bearer = await token();
    const claim = () =>
      fetch(`${platform.baseUrl}/api/v1/jobs/claim`, {
        method: 'POST',
        headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
        body: JSON.stringify({ types: ['lifecycle.never'], wait_seconds: 5 }),
      }).then((response) => response.status);
    const waiting = [claim(), claim()];
    await new Promise((resolve) => setTimeout(resolve, 500));

    const stopped = Date.now();
    await platform.stopProcess('control-plane'); // SIGTERM, until it exits (SIGKILL after 5 s)
    const took = Date.now() - stopped;
    const answered = await Promise.all(waiting);
    await platform.restartProcess('control-plane');
    // Claims waiting through the drain are answered (no job: 204) once the server closes.
    expect(answered).toEqual([204, 204]);
    expect(took).toBeLessThan(DRAIN_MS + 2_000);
  }, 30_000);

  it('stops every process within its drain plus one second whatever it served, and a worker loses no job across the restarts', async () => {
    const admin = await adminToken(await discover(platform), platform);
    const { client, token } = await serviceClient(platform.baseUrl, admin, platform, 'lifecycle-rolling', [
      'jobs.work',
      'jobs.write',
      'jobs.read',
    ]);
    const jobs = new JobsClient(client);
    const ran: string[] = [];
    const worker = new JobWorker(client, {
      types: ['lifecycle.rolling'],
      concurrency: 2,
      handler: async (payload) => {
        ran.push((payload as { n: string }).n);
        return {};
      },
    });
    worker.start();
    // Submitted as a client does: again, under the same key, after a 503 (a process just back).
    const done = async (n: string) => {
      for (let attempt = 1; ; attempt += 1) {
        try {
          const job = await jobs.submit('acme', {
            type: 'lifecycle.rolling',
            payload: { n },
            idempotency_key: `rolling-${n}`,
          });
          return await untilJob(jobs, 'acme', job.id, (j) => j.done, 20_000);
        } catch (error) {
          if (!(error instanceof PlatformError && error.status === 503) || attempt === 50) throw error;
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
      }
    };
    await expect(done('before')).resolves.toMatchObject({ state: 'SUCCEEDED' });
    // A worker that has served and stopped: its claims were aborted, after which undici opens a
    // connection it sends nothing on (before: the backend waited ~64 s, for Node's headers timeout).
    const stopped = new JobWorker(client, {
      types: ['lifecycle.none'],
      concurrency: 2,
      handler: async () => ({}),
    });
    stopped.start();
    await new Promise((resolve) => setTimeout(resolve, 500));
    await stopped.stop();

    const bearer = await token();
    const sidecar = createAuthServiceClient(platform.sidecarAddress);
    const opened: Array<{ close(): void }> = [];
    const took: Record<string, number> = {};
    const answered: Record<string, number> = {};
    try {
      for (const name of ['backend', 'control-plane', 'sidecar'] as const) {
        // What each process serves, open as it is stopped: a live follower (through the backend
        // to the control plane, and the sidecar's own feed streams), a gRPC watch stream (and the
        // backend's), a long poll waiting, and connections that have sent nothing.
        const follower = await openSse(`${platform.baseUrl}/api/v1/token-events`, {
          authorization: `Bearer ${admin}`,
        });
        const metadata = new grpc.Metadata();
        metadata.set(INTERNAL_TOKEN_METADATA, platform.internalToken);
        const watch = sidecar.WatchInvalidations({}, metadata);
        const watchEnded = new Promise((resolve) => watch.on('error', resolve).on('end', resolve));
        const silent = [
          platform.baseUrl,
          platform.controlPlaneUrl,
          `http://127.0.0.1:${platform.env.BACKEND_METRICS_PORT}`,
        ].map((url) => connect(Number(new URL(url).port), '127.0.0.1').on('error', () => undefined));
        opened.push(
          follower,
          { close: () => watch.cancel() },
          ...silent.map((socket: Socket) => ({ close: () => socket.destroy() })),
        );
        const waiting = fetch(`${platform.baseUrl}/api/v1/jobs/claim`, {
          method: 'POST',
          headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
          body: JSON.stringify({ types: ['lifecycle.never'], wait_seconds: 5 }),
        }).then(
          (response) => response.status,
          () => 0,
        );
        expect(follower.status).toBe(200);
        await new Promise((resolve) => setTimeout(resolve, 500));

        const since = Date.now();
        await platform.stopProcess(name); // SIGTERM, until it exits (SIGKILL after 5 s)
        took[name] = Date.now() - since;
        // What the stopped process served has ended, not waited for.
        await (name === 'sidecar' ? within(watchEnded, 2_000) : closedWithin(follower, 2_000));
        answered[name] = await waiting;
        await platform.restartProcess(name);
        await until(async () => (await status(`${platform.baseUrl}/readyz`)).code === 200);
      }
      // Each exited right after its drain (the sidecar has none); none waited for the SIGKILL.
      expect(Object.entries(took).filter(([, ms]) => ms >= DRAIN_MS + 1_000)).toEqual([]);
      // The long poll waiting through the backend was answered, never cut: nothing came (204),
      // from the backend closing, the control plane closing, or its wait running out.
      expect(answered).toEqual({ backend: 204, 'control-plane': 204, sidecar: 204 });
      // The worker that ran all along reconnected: a job submitted now runs.
      await expect(done('after')).resolves.toMatchObject({ state: 'SUCCEEDED' });
      expect(ran).toEqual(['before', 'after']);
    } finally {
      for (const stream of opened) stream.close();
      sidecar.close();
      await worker.stop();
    }
  }, 90_000);
});
