import { JobWorker } from '@platform/sdk';
import { serviceClient } from '../../support/jobs';
import { adminToken, basic, discover, postForm } from '../../support/oauth';
import { startPlatform, type TestPlatform } from '../../support/platform';

/** Liveness, readiness and the drain at SIGTERM, on the built processes. */
describe('probes and graceful shutdown', () => {
  let platform: TestPlatform;
  const DRAIN_MS = 1_500;

  beforeAll(async () => {
    platform = await startPlatform({ env: { SHUTDOWN_DRAIN_MS: String(DRAIN_MS) } });
  });
  afterAll(async () => platform?.stop());

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
});
