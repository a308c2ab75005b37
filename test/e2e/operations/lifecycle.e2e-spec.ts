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
    const seen: Array<{ at: number; ready: number; ping: number }> = [];
    let polling = true;
    const poll = (async () => {
      while (polling) {
        const [ready, ping] = await Promise.all([
          status(`${platform.baseUrl}/readyz`),
          status(`${platform.baseUrl}/v1/ping`),
        ]);
        seen.push({ at: Date.now(), ready: ready.code, ping: ping.code });
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const stopped = Date.now();
    await platform.stopProcess('backend'); // SIGTERM, until it exits
    polling = false;
    await poll;

    const during = seen.filter((s) => s.at > stopped + 100 && s.ready === 503);
    // Not ready, yet still answering: the drain.
    expect(during.length).toBeGreaterThan(5);
    expect(during.every((s) => s.ping === 200)).toBe(true);
    // Never an error answer: 200 until the process has gone (then the connection is refused).
    expect(seen.every((s) => s.ping === 200 || s.ping === 0)).toBe(true);
    // Readiness went first: the first sample that was not ready still got its ping answered.
    const firstUnready = seen.find((s) => s.ready !== 200);
    expect(firstUnready).toMatchObject({ ready: 503, ping: 200 });
    await platform.restartProcess('backend');
  }, 30_000);
});
