import { type Job, JobsClient, JobWorker, OAuthClient } from '@platform/sdk';
import { describeWithHaproxy, type LoadBalancer, startLoadBalancer } from '../../support/haproxy';
import { serviceClient, untilJob } from '../../support/jobs';
import { adminToken, discover, registerApp } from '../../support/oauth';
import { startBackendReplica, startPlatform, type TestPlatform } from '../../support/platform';

/** Long enough for the balancer (checking every 100 ms) to take a draining backend out. */
const DRAIN_MS = 500;
const TENANT = 'rolling';

/**
 * A rolling restart of the edge under load (docs/operations.md, "Probes and graceful shutdown"):
 * two backends behind a real load balancer (HAProxy health-checking `/readyz`, as a Kubernetes
 * Service does), SDK clients issuing and using tokens and a job worker running jobs through it,
 * while each backend in turn gets SIGTERM and comes back. No request fails: the only retries are
 * the balancer's, of requests no backend received.
 */
describeWithHaproxy('a rolling restart of the backends under load', () => {
  let platform: TestPlatform;
  let replica: Awaited<ReturnType<typeof startBackendReplica>>;
  let balancer: LoadBalancer;

  beforeAll(async () => {
    platform = await startPlatform({ env: { SHUTDOWN_DRAIN_MS: String(DRAIN_MS) } });
    replica = await startBackendReplica(platform);
    balancer = await startLoadBalancer(platform.dataDir, [platform.baseUrl, replica.baseUrl]);
  });
  afterAll(async () => {
    await balancer?.stop();
    await replica?.stop();
    await platform?.stop();
  });

  it('fails no token request, no validation and no job while each backend restarts in turn', async () => {
    const url = balancer.url;
    const admin = await adminToken(await discover(platform), platform);
    const app = await registerApp(platform, admin, {
      client_id: 'rolling-api',
      declared_scopes: ['jobs.read'],
    });
    const oauth = new OAuthClient({
      baseUrl: url,
      clientId: app.client_id,
      clientSecret: app.client_secret!,
    });
    const jobs = new JobsClient(
      (await serviceClient(url, admin, platform, 'rolling-scheduler', ['jobs.write', 'jobs.read'], TENANT))
        .client,
    );
    const workerClient = (await serviceClient(url, admin, platform, 'rolling-worker', ['jobs.work'], TENANT))
      .client;
    const workerErrors: unknown[] = [];
    const worker = new JobWorker(workerClient, {
      types: ['rolling.step'],
      concurrency: 2,
      handler: async (payload) => payload,
      onError: (error) => workerErrors.push(error),
    });
    worker.start();

    const failures: string[] = [];
    let calls = 0;
    const submitted: Job[] = [];
    let running = true;
    const client = async () => {
      while (running) {
        calls += 1;
        try {
          const { access_token } = await oauth.clientCredentials();
          const me = await fetch(`${url}/v1/me`, { headers: { authorization: `Bearer ${access_token}` } });
          if (me.status !== 200) failures.push(`GET /v1/me answered ${me.status}`);
        } catch (error) {
          failures.push(`token: ${String(error)}`);
        }
      }
    };
    const submitter = async () => {
      for (let n = 0; running; n += 1) {
        try {
          submitted.push(await jobs.submit(TENANT, { type: 'rolling.step', payload: { n } }));
        } catch (error) {
          failures.push(`submit: ${String(error)}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    const load = [client(), client(), client(), submitter()];

    const settle = () => new Promise((resolve) => setTimeout(resolve, 1_000));
    // As an orchestrator rolls: the next backend only once the restarted one is ready again
    // (and the balancer, checking every 100 ms, has seen it).
    const ready = async (backend: string) => {
      for (const deadline = Date.now() + 20_000; ;) {
        const status = await fetch(`${backend}/readyz`).then(
          (r) => r.status,
          () => 0,
        );
        if (status === 200) break;
        if (Date.now() > deadline) throw new Error(`${backend} not ready after its restart`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await new Promise((resolve) => setTimeout(resolve, 300));
    };
    await settle();
    await platform.stopProcess('backend');
    await platform.restartProcess('backend');
    await ready(platform.baseUrl);
    await replica.restartBackend();
    await ready(replica.baseUrl);
    await settle();
    running = false;
    await Promise.all(load);

    expect(failures).toEqual([]);
    expect(calls).toBeGreaterThan(50);
    expect(submitted.length).toBeGreaterThan(20);
    // 30 s a job: in the full suite another worker's bench load can hold the CPU for many seconds.
    for (const job of submitted) {
      await expect(
        untilJob(jobs, TENANT, job.id, (j) => j.state === 'SUCCEEDED', 30_000),
      ).resolves.toMatchObject({
        output: job.payload,
      });
    }
    await worker.stop();
    // A claim cut short by a drain is answered 204 (no job), never an error the worker sees.
    expect(workerErrors).toEqual([]);
  }, 60_000);
});
