import { AuditTrail } from '../audit/audit-trail';
import { ManualClock } from '../clock';
import { InMemoryStores, InMemoryTransactor } from '../testing/in-memory-stores';
import type { CrossTenantRefusal } from '../authority/cross-tenant-refusals';
import type { ActingPrincipal } from '../users/user-administration';
import type { Job } from './job';
import { JobQueue } from './job-queue';

const service = (clientId: string, tenant: string | null, scopes = ['jobs.work']): ActingPrincipal => ({
  kind: 'service',
  id: clientId,
  clientId,
  tenant,
  roles: [],
  scopes,
});
const scheduler = service('scheduler', null, ['jobs.write', 'jobs.read']);
const unbound = service('renderer', null);
const globexWorker = service('globex-worker', 'globex');

function setup() {
  const clock = new ManualClock();
  const stores = new InMemoryStores();
  const refused: CrossTenantRefusal[] = [];
  const refusals = {
    refused: async (refusal: CrossTenantRefusal): Promise<void> => {
      refused.push(refusal);
    },
  };
  const queue = new JobQueue(stores.jobs, new InMemoryTransactor(stores), new AuditTrail(clock), clock, {
    refusals,
  });
  const submit = async (tenant: string) =>
    (await queue.submit(scheduler, tenant, { type: 'payroll.run', payload: { tenant } })).job;
  const current = (job: Job) => queue.get(scheduler, job.tenant, job.id);
  return { queue, submit, current, refused };
}

describe('JobQueue: who may work jobs', () => {
  it('refuses a user a claim whatever its roles and scopes, and leaves the job queued', async () => {
    const { queue, submit, current } = setup();
    const acme = await submit('acme');
    const admins: ActingPrincipal[] = [
      {
        kind: 'user',
        id: 'gus',
        clientId: 'portal',
        tenant: 'globex',
        roles: ['tenant_admin'],
        scopes: ['jobs.*'],
      },
      {
        kind: 'user',
        id: 'ada',
        clientId: 'portal',
        tenant: 'acme',
        roles: ['global_admin'],
        scopes: ['jobs.work'],
      },
    ];

    for (const user of admins) {
      await expect(queue.claim(user, ['payroll.run'], { tenant: 'acme' })).rejects.toMatchObject({
        code: 'forbidden',
        message: expect.stringContaining('service-only'),
      });
      await expect(queue.claim(user, ['payroll.run'])).rejects.toMatchObject({ code: 'forbidden' });
    }
    await expect(current(acme)).resolves.toMatchObject({ state: 'QUEUED', attempt: 0, lease: null });
  });

  it('refuses a worker bound to globex a claim in acme, as a cross-tenant refusal, and leaves the job queued', async () => {
    const { queue, submit, current, refused } = setup();
    const acme = await submit('acme');

    await expect(queue.claim(globexWorker, ['payroll.run'], { tenant: 'acme' })).rejects.toMatchObject({
      code: 'forbidden',
      message: expect.stringContaining('tenant-binding'),
    });
    await expect(current(acme)).resolves.toMatchObject({ state: 'QUEUED', attempt: 0, lease: null });
    expect(refused).toEqual([
      {
        principal: expect.objectContaining({ clientId: 'globex-worker', tenant: 'globex' }),
        action: 'jobs.work',
        tenant: 'acme',
      },
    ]);
  });

  it('lets a bound worker that names no tenant claim only from its own', async () => {
    const { queue, submit } = setup();
    await submit('acme');
    const globex = await submit('globex');

    await expect(queue.claim(globexWorker, ['payroll.run'])).resolves.toMatchObject({
      id: globex.id,
      lease: { worker: 'globex-worker', workerTenant: 'globex' },
    });
    await expect(queue.claim(globexWorker, ['payroll.run'])).resolves.toBeNull();
    await expect(queue.claim(globexWorker, ['payroll.run'], { tenant: 'globex' })).resolves.toBeNull();
  });

  it('lets an unbound worker claim platform-wide, from a tenant it names or from any', async () => {
    const { queue, submit } = setup();
    const acme = await submit('acme');
    const globex = await submit('globex');

    await expect(queue.claim(unbound, ['payroll.run'], { tenant: 'globex' })).resolves.toMatchObject({
      id: globex.id,
      lease: { worker: 'renderer', workerTenant: null },
    });
    await expect(queue.claim(unbound, ['payroll.run'])).resolves.toMatchObject({ id: acme.id });
  });

  it('refuses a claim to a service without jobs.work', async () => {
    const { queue } = setup();

    await expect(queue.claim(scheduler, ['payroll.run'])).rejects.toMatchObject({
      code: 'forbidden',
      message: expect.stringContaining('token-scope'),
    });
  });
});

describe('JobQueue: the lease is its worker’s', () => {
  async function claimedBy(worker: ActingPrincipal, tenant = 'acme') {
    const context = setup();
    const job = await context.submit(tenant);
    const claimed = (await context.queue.claim(worker, ['payroll.run'])) as Job;
    return { ...context, job, lease: claimed.lease!.id };
  }

  const intruders: Array<[string, ActingPrincipal]> = [
    ['another unbound worker', service('thief', null)],
    ['the same client bound to a tenant', service('renderer', 'acme')],
    ['a worker bound to the job’s own tenant', service('acme-worker', 'acme')],
  ];

  it.each(intruders)(
    'refuses %s heartbeats, log lines and completion under the lease id, changing nothing',
    async (_, intruder) => {
      const { queue, job, lease, current } = await claimedBy(unbound);
      const before = await current(job);

      await expect(queue.heartbeat(intruder, job.id, lease, 600)).rejects.toMatchObject({
        code: 'forbidden',
      });
      await expect(queue.appendLogs(intruder, job.id, lease, ['forged'])).rejects.toMatchObject({
        code: 'forbidden',
      });
      await expect(
        queue.complete(intruder, job.id, lease, { outcome: 'succeeded', output: { forged: true } }),
      ).rejects.toMatchObject({ code: 'forbidden' });

      await expect(current(job)).resolves.toEqual(before);
      await expect(queue.logs(scheduler, 'acme', job.id, 0, 10)).resolves.toEqual([]);
      await expect(
        queue.complete(unbound, job.id, lease, { outcome: 'succeeded', output: 1 }),
      ).resolves.toMatchObject({
        state: 'SUCCEEDED',
        output: 1,
      });
    },
  );

  it('refuses a worker bound to another tenant the job’s lease, as a cross-tenant refusal', async () => {
    const { queue, job, lease, current, refused } = await claimedBy(unbound);

    await expect(queue.complete(globexWorker, job.id, lease, { outcome: 'succeeded' })).rejects.toMatchObject(
      {
        code: 'forbidden',
        message: expect.stringContaining('tenant-binding'),
      },
    );
    await expect(current(job)).resolves.toMatchObject({ state: 'RUNNING' });
    expect(refused).toMatchObject([{ action: 'jobs.work', tenant: 'acme' }]);
  });

  it('refuses a user the lease even with its id', async () => {
    const { queue, job, lease, current } = await claimedBy(unbound);
    const user: ActingPrincipal = {
      kind: 'user',
      id: 'renderer',
      clientId: 'renderer',
      tenant: 'acme',
      roles: ['tenant_admin'],
      scopes: ['jobs.*'],
    };

    await expect(queue.heartbeat(user, job.id, lease)).rejects.toMatchObject({ code: 'forbidden' });
    await expect(queue.complete(user, job.id, lease, { outcome: 'succeeded' })).rejects.toMatchObject({
      code: 'forbidden',
    });
    await expect(current(job)).resolves.toMatchObject({ state: 'RUNNING' });
  });

  it('lets a bound worker run its own tenant’s job to the end', async () => {
    const acmeWorker = service('acme-worker', 'acme');
    const { queue, job, lease } = await claimedBy(acmeWorker);

    await expect(queue.heartbeat(acmeWorker, job.id, lease)).resolves.toMatchObject({
      cancelRequested: false,
    });
    await queue.appendLogs(acmeWorker, job.id, lease, ['ran']);
    await expect(
      queue.complete(acmeWorker, job.id, lease, { outcome: 'succeeded', output: { ok: true } }),
    ).resolves.toMatchObject({ state: 'SUCCEEDED', output: { ok: true } });
  });

  it('answers a wrong lease id 409 before asking who holds it', async () => {
    const { queue, job } = await claimedBy(unbound);

    await expect(queue.heartbeat(service('thief', null), job.id, 'not-the-lease')).rejects.toMatchObject({
      code: 'conflict',
    });
  });
});
