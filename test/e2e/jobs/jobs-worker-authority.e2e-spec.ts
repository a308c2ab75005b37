import { type Job, JobsClient, JobWorker } from '@platform/sdk';
import { identityOf, signIn } from '../../support/internal-consent';
import { serviceClient, untilJob } from '../../support/jobs';
import { adminToken, discover, registerApp } from '../../support/oauth';
import { sharedPlatform, type TestPlatform } from '../../support/platform';

/** Its own tenants, apps and job types on the shared platform: its workers claim by type. */
const ACME = 'worker-authority-acme';
const GLOBEX = 'worker-authority-globex';

/**
 * Issue 36, reproduction 2: a tenant_admin of globex, signed in to a web app declaring `jobs.*`,
 * claimed acme's payroll job and completed it with forged output. Only service principals work
 * jobs, each within its reach, and only the worker holding a lease acts under it.
 */
describe('jobs: who may work a job, and who may act under its lease', () => {
  let platform: TestPlatform;
  let admin: string;
  let jobs: JobsClient;
  /** A tenant_admin of globex, through a web app declaring jobs.*. */
  let globexAdmin: string;
  /** A worker app bound to globex. */
  let globexWorker: string;
  /** An unbound worker, and another one holding no lease. */
  let renderer: string;
  let thief: string;
  let acmeWorker: JobWorker | undefined;

  beforeAll(async () => {
    platform = sharedPlatform();
    admin = await adminToken(await discover(platform), platform);
    const service = (clientId: string, scopes: string[], tenant?: string) =>
      serviceClient(platform.baseUrl, admin, platform, clientId, scopes, tenant);
    jobs = new JobsClient((await service('authority-scheduler', ['jobs.read', 'jobs.write'])).client);
    const portal = await registerApp(platform, admin, {
      client_id: 'authority-payroll-portal',
      app_type: 'web',
      declared_scopes: ['jobs.*'],
      redirect_uris: ['http://127.0.0.1:9/worker-authority/callback'],
    });
    globexAdmin = (
      await signIn(platform, portal, {
        identity: identityOf('authority-gus', GLOBEX, ['tenant_admin']),
        scope: 'jobs.*',
      })
    ).tokens.access_token;
    globexWorker = await (await service('authority-globex-payroll', ['jobs.work'], GLOBEX)).token();
    renderer = await (await service('authority-renderer', ['jobs.work'])).token();
    thief = await (await service('authority-thief', ['jobs.work'])).token();
    acmeWorker = new JobWorker((await service('authority-acme-ledger', ['jobs.work'], ACME)).client, {
      types: ['authority.ledger.close'],
      leaseSeconds: 6,
      handler: async (payload, { log }) => {
        await log('closing the books');
        // Long enough for a heartbeat (every third of the lease).
        await new Promise((resolve) => setTimeout(resolve, 2_500));
        return { closed: (payload as { month: string }).month };
      },
    });
    acmeWorker.start();
  });
  afterAll(async () => {
    await acmeWorker?.stop();
  });

  const post = (token: string, path: string, body: unknown) =>
    fetch(`${platform.baseUrl}/api/v1${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const untouched = { state: 'QUEUED', attempt: 0, worker: null };

  it('refuses a tenant_admin of globex, signed in through a web app declaring jobs.*, the claim of acme’s job: it stays queued', async () => {
    const job = await jobs.submit(ACME, {
      type: 'authority.payroll.run',
      payload: { salary: 'acme-secret-4242' },
    });
    // The token is good for what the user may do: read its own tenant's jobs.
    const own = await fetch(`${platform.baseUrl}/api/v1/tenants/${GLOBEX}/jobs`, {
      headers: { authorization: `Bearer ${globexAdmin}` },
    });
    expect(own.status).toBe(200);

    for (const body of [
      { types: ['authority.payroll.run'], tenant: ACME },
      { types: ['authority.payroll.run'] },
    ]) {
      const response = await post(globexAdmin, '/jobs/claim', body);
      const text = await response.text();
      expect({ body, status: response.status }).toEqual({ body, status: 403 });
      expect(text).not.toContain('acme-secret-4242');
    }

    await expect(jobs.get(ACME, job.id)).resolves.toMatchObject(untouched);
  });

  it('refuses a worker bound to globex the claim of acme’s job, as a cross-tenant refusal, and gives it globex’s only', async () => {
    const acme = await jobs.submit(ACME, { type: 'authority.invoice.send', payload: { to: 'acme' } });
    const globex = await jobs.submit(GLOBEX, { type: 'authority.invoice.send', payload: { to: 'globex' } });

    const refused = await post(globexWorker, '/jobs/claim', {
      types: ['authority.invoice.send'],
      tenant: ACME,
    });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ decided_by: ['tenant-binding'] });
    // Naming no tenant, it claims in its own.
    const claimed = await post(globexWorker, '/jobs/claim', { types: ['authority.invoice.send'] });
    expect(claimed.status).toBe(200);
    expect(await claimed.json()).toMatchObject({
      id: globex.id,
      tenant: GLOBEX,
      worker: 'authority-globex-payroll',
    });
    expect((await post(globexWorker, '/jobs/claim', { types: ['authority.invoice.send'] })).status).toBe(204);

    await expect(jobs.get(ACME, acme.id)).resolves.toMatchObject(untouched);
  });

  it('refuses heartbeats, log lines and completion under a lease to anyone but its worker: the job does not end SUCCEEDED', async () => {
    const job = await jobs.submit(ACME, { type: 'authority.report.build', payload: { quarter: 'Q4' } });
    const claim = await post(renderer, '/jobs/claim', {
      types: ['authority.report.build'],
      lease_seconds: 60,
    });
    expect(claim.status).toBe(200);
    const { lease } = (await claim.json()) as { lease: { id: string } };
    const path = `/jobs/${job.id}`;

    for (const [who, token] of [
      ['another worker', thief],
      ['a worker bound to globex', globexWorker],
      ['a tenant_admin of globex', globexAdmin],
    ]) {
      const statuses = [
        (await post(token, `${path}/heartbeat`, { lease_id: lease.id, lease_seconds: 600 })).status,
        (await post(token, `${path}/logs`, { lease_id: lease.id, lines: ['forged'] })).status,
        (
          await post(token, `${path}/complete`, {
            lease_id: lease.id,
            outcome: 'succeeded',
            output: { forged: true },
          })
        ).status,
      ];
      expect({ who, statuses }).toEqual({ who, statuses: [403, 403, 403] });
    }

    const now = await jobs.get(ACME, job.id);
    expect(now).toMatchObject({ state: 'RUNNING', attempt: 1, worker: 'authority-renderer', done: false });
    expect(now.output).toBeUndefined();
    expect((await jobs.logs(ACME, job.id)).lines).toEqual([]);
    // Its own worker still finishes it.
    const done = await post(renderer, `${path}/complete`, {
      lease_id: lease.id,
      outcome: 'succeeded',
      output: { pages: 12 },
    });
    expect(done.status).toBe(200);
    expect(await done.json()).toMatchObject({ state: 'SUCCEEDED', output: { pages: 12 } });
    // The bound worker's reach into acme is in acme's log.
    const audit = await fetch(`${platform.baseUrl}/api/v1/audit/records?tenant=${ACME}&limit=1000`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    const { records } = (await audit.json()) as { records: Array<{ action: string; actor: { id: string } }> };
    expect(records).toContainEqual(
      expect.objectContaining({
        action: 'authorization.cross_tenant_refused',
        actor: expect.objectContaining({ id: 'authority-globex-payroll' }),
      }),
    );
  });

  it('lets a worker bound to acme run acme’s job with the SDK’s JobWorker, heartbeats included', async () => {
    const job = await jobs.submit(ACME, { type: 'authority.ledger.close', payload: { month: '2026-11' } });

    const done: Job = await untilJob(jobs, ACME, job.id, (j) => j.done);

    expect(done).toMatchObject({ state: 'SUCCEEDED', attempt: 1, output: { closed: '2026-11' } });
    expect((await jobs.logs(ACME, job.id)).lines.map((l) => l.line)).toEqual(['closing the books']);
  });
});
