import { type ActingPrincipal, AuditTrail, type Job, JobQueue, ManualClock } from '@platform/domain';
import type { Contract } from '../support/contract';
import { uniqueId } from '../support/factories';

const submitter: ActingPrincipal = {
  kind: 'service',
  id: 'scheduler',
  clientId: 'scheduler',
  tenant: null,
  roles: [],
  scopes: ['jobs.write'],
};
const worker: ActingPrincipal = { ...submitter, id: 'worker', clientId: 'worker', scopes: ['jobs.work'] };

export const jobStoreContract: Contract = (context) => {
  let clock: ManualClock;
  let queue: JobQueue;
  let type: string;
  beforeEach(() => {
    clock = new ManualClock();
    const { stores, transactor } = context();
    queue = new JobQueue(stores.jobs, transactor, new AuditTrail(clock), clock);
    // Every test has its own type, so claims never see another test's jobs.
    type = uniqueId('report').toLowerCase();
  });
  const submit = (extra: Record<string, unknown> = {}, tenant = 'acme') =>
    queue.submit(submitter, tenant, { type, payload: { n: 1 }, ...extra }).then((r) => r.job);

  it('claims the oldest eligible job of the types asked for, once, and none before its time', async () => {
    const first = await submit();
    clock.advance(1);
    const second = await submit();
    await queue.submit(submitter, 'acme', { type: 'other-type', payload: null });

    const a = await queue.claim(worker, [type]);
    const b = await queue.claim(worker, [type]);
    expect([a?.id, b?.id]).toEqual([first.id, second.id]);
    expect(a).toMatchObject({ state: 'RUNNING', attempt: 1, lease: { worker: 'worker' } });
    await expect(queue.claim(worker, [type])).resolves.toBeNull();
  });

  it('lists overdue jobs by lease expiry, a tie by id, not in the order they were stored', async () => {
    const [a, b, c] = [await submit(), await submit(), await submit()];
    for (const [job, leaseSeconds] of [
      [a, 60],
      [b, 10],
      [c, 10],
    ] as const)
      expect((await queue.claim(worker, [type], { leaseSeconds }))?.id).toBe(job.id);
    clock.advance(120_000);

    const overdue = await context().stores.jobs.listOverdueJobs(clock.now(), 10);
    expect(overdue.map((j) => j.id)).toEqual([b.id, c.id].sort().concat(a.id));
  });

  it('never hands one job to two of many concurrent claimers', async () => {
    const submitted = await Promise.all(Array.from({ length: 5 }, () => submit()));
    const claims = await Promise.all(Array.from({ length: 12 }, () => queue.claim(worker, [type])));
    const claimed = claims.filter((c): c is Job => c !== null).map((c) => c.id);

    expect(claimed.sort()).toEqual(submitted.map((j) => j.id).sort());
  });

  it('claims several of the oldest jobs at once, each under a lease of its own', async () => {
    const submitted: Job[] = [];
    for (let i = 0; i < 4; i++) {
      submitted.push(await submit());
      clock.advance(1);
    }

    const batch = await queue.claimMany(worker, [type], { max: 3 });
    expect(batch.map((j) => j.id)).toEqual(submitted.slice(0, 3).map((j) => j.id));
    expect(new Set(batch.map((j) => j.lease!.id)).size).toBe(3);
    for (const job of batch) {
      await expect(queue.get(submitter, 'acme', job.id)).resolves.toMatchObject({
        state: 'RUNNING',
        attempt: 1,
      });
      const transitions = await queue.transitions(submitter, 'acme', job.id, 0);
      expect(transitions.map((t) => t.state)).toEqual(['QUEUED', 'RUNNING']);
    }
    await expect(queue.claimMany(worker, [type], { max: 3 })).resolves.toEqual([
      expect.objectContaining({ id: submitted[3].id }),
    ]);
    await expect(queue.claimMany(worker, [type], { max: 3 })).resolves.toEqual([]);
    await expect(queue.claimMany(worker, [type], { max: 101 })).rejects.toMatchObject({
      code: 'validation_failed',
    });
  });

  it('never hands one job to two concurrent batch claimers', async () => {
    const submitted = await Promise.all(Array.from({ length: 9 }, () => submit()));
    const claims = await Promise.all(
      Array.from({ length: 6 }, () => queue.claimMany(worker, [type], { max: 4 })),
    );

    expect(
      claims
        .flat()
        .map((j) => j.id)
        .sort(),
    ).toEqual(submitted.map((j) => j.id).sort());
  });

  it('completes a batch in one go, each report judged alone, audited once per job', async () => {
    const { stores } = context();
    const [a, b, c] = [await submit(), await submit(), await submit()];
    const claimed = await queue.claimMany(worker, [type], { max: 3 });
    const lease = (job: Job) => claimed.find((j) => j.id === job.id)!.lease!.id;
    const other: ActingPrincipal = { ...worker, id: 'other', clientId: 'other' };
    const before = (await stores.audit.auditChainHead()).lastSequenceId;

    const results = await queue.completeMany(worker, [
      { id: a.id, leaseId: lease(a), report: { outcome: 'succeeded', output: { ok: 1 } } },
      { id: b.id, leaseId: 'not-the-lease', report: { outcome: 'succeeded' } },
      { id: c.id, leaseId: lease(c), report: { outcome: 'failed', message: 'boom' } },
      { id: 'no-such-job', leaseId: 'x', report: { outcome: 'succeeded' } },
      { id: a.id, leaseId: lease(a), report: { outcome: 'succeeded' } },
    ]);

    expect(results.map((r) => ('error' in r ? r.error.code : r.job.state))).toEqual([
      'SUCCEEDED',
      'conflict',
      'QUEUED',
      'not_found',
      'conflict',
    ]);
    await expect(queue.get(submitter, 'acme', a.id)).resolves.toMatchObject({
      state: 'SUCCEEDED',
      output: { ok: 1 },
    });
    await expect(queue.get(submitter, 'acme', b.id)).resolves.toMatchObject({ state: 'RUNNING' });
    await expect(queue.get(submitter, 'acme', c.id)).resolves.toMatchObject({
      state: 'QUEUED',
      error: { message: 'boom' },
    });
    const [onB] = await queue.completeMany(other, [
      { id: b.id, leaseId: lease(b), report: { outcome: 'succeeded' } },
    ]);
    expect('error' in onB && onB.error.code).toBe('forbidden');
    const audited = await stores.audit.listAuditRecords({ after: before, limit: 1_000 });
    const ofBatch = audited.filter((r) => [a.id, b.id, c.id].includes(r.target ?? ''));
    expect(ofBatch.map((r) => [r.target, r.action]).sort()).toEqual(
      [
        [a.id, 'job.attempt_succeeded'],
        [c.id, 'job.attempt_failed'],
      ].sort(),
    );
  });

  it('submits several jobs in one call, each judged alone, audited once per new job', async () => {
    const { stores } = context();
    const used = await submit({ idempotencyKey: `${type}-used`, payload: { n: 0 } });
    const before = (await stores.audit.auditChainHead()).lastSequenceId;

    const results = await queue.submitMany(submitter, 'acme', [
      { type, payload: { n: 1 } },
      { type: 'Not A Type', payload: null },
      { type, payload: { n: 2 }, idempotencyKey: `${type}-new` },
      { type, payload: { n: 2 }, idempotencyKey: `${type}-new` },
      { type, payload: { n: 3 }, idempotencyKey: `${type}-used` },
      { type, payload: 'x'.repeat(40_000) },
    ]);

    expect(results.map((r) => ('error' in r ? r.error.code : r.created))).toEqual([
      true,
      'validation_failed',
      true,
      false,
      'conflict',
      'validation_failed',
    ]);
    const [first, , keyed, again] = results as Array<{ job: Job }>;
    expect(again.job.id).toBe(keyed.job.id);
    await expect(queue.get(submitter, 'acme', first.job.id)).resolves.toMatchObject({
      state: 'QUEUED',
      payload: { n: 1 },
    });
    expect(used.id).not.toBe(keyed.job.id);
    const audited = await stores.audit.listAuditRecords({ after: before, limit: 1_000 });
    expect(
      audited
        .filter((r) => r.action === 'job.submitted')
        .map((r) => r.target)
        .sort(),
    ).toEqual([first.job.id, keyed.job.id].sort());
    await expect(queue.submitMany(submitter, 'acme', [])).rejects.toMatchObject({
      code: 'validation_failed',
    });
  });

  it('inserts a list of jobs at once, a key used before or earlier in the list a duplicate', async () => {
    const { stores, transactor } = context();
    const first = await submit({ idempotencyKey: `${type}-k1` });
    const like = (idempotencyKey: string | null): Job => ({ ...first, id: uniqueId('job'), idempotencyKey });
    const list = [like(null), like(`${type}-k2`), like(`${type}-k1`), like(`${type}-k2`), like(null)];

    const answers = await transactor.inTransaction((s) => s.jobs.insertJobs(list));

    expect(answers).toEqual(['created', 'created', 'duplicate', 'duplicate', 'created']);
    const stored = await stores.jobs.findJobs(list.map((j) => j.id));
    expect(stored.map((j) => j.id).sort()).toEqual([list[0].id, list[1].id, list[4].id].sort());
  });

  it('answers the same job for the same idempotency key, and 409 for another job under it', async () => {
    const first = await queue.submit(submitter, 'acme', { type, payload: { n: 1 }, idempotencyKey: 'k-1' });
    const again = await queue.submit(submitter, 'acme', { type, payload: { n: 1 }, idempotencyKey: 'k-1' });
    const racing = await Promise.all(
      [1, 2, 3].map(() =>
        queue.submit(submitter, 'acme', { type, payload: { n: 2 }, idempotencyKey: 'k-2' }),
      ),
    );

    expect(first.created).toBe(true);
    expect(again).toEqual({ job: first.job, created: false });
    expect(new Set(racing.map((r) => r.job.id)).size).toBe(1);
    expect(racing.filter((r) => r.created)).toHaveLength(1);
    await expect(
      queue.submit(submitter, 'acme', { type, payload: { n: 9 }, idempotencyKey: 'k-1' }),
    ).rejects.toMatchObject({ code: 'conflict' });
  });

  it('runs a job to SUCCEEDED with heartbeats and logs, and refuses a stale lease', async () => {
    const job = await submit();
    const claimed = (await queue.claim(worker, [type])) as Job;
    const lease = claimed.lease!.id;

    await expect(queue.heartbeat(worker, job.id, lease)).resolves.toMatchObject({ cancelRequested: false });
    await queue.appendLogs(worker, job.id, lease, ['starting', 'half way']);
    await queue.appendLogs(worker, job.id, lease, ['done']);
    await expect(queue.heartbeat(worker, job.id, 'not-the-lease')).rejects.toMatchObject({
      code: 'conflict',
    });
    const done = await queue.complete(worker, job.id, lease, { outcome: 'succeeded', output: { rows: 3 } });

    expect(done).toMatchObject({ state: 'SUCCEEDED', output: { rows: 3 }, lease: null, error: null });
    const logs = await queue.logs(submitter, 'acme', job.id, 0, 10);
    expect(logs.map((l) => l.line)).toEqual(['starting', 'half way', 'done']);
    const states = await queue.transitions(submitter, 'acme', job.id, 0);
    expect(states.map((s) => s.state)).toEqual(['QUEUED', 'RUNNING', 'SUCCEEDED']);
    await expect(queue.complete(worker, job.id, lease, { outcome: 'succeeded' })).rejects.toMatchObject({
      code: 'conflict',
    });
  });

  it('records who holds a lease, its client_id and the tenant it is bound to, through heartbeats', async () => {
    const acmeWorker: ActingPrincipal = {
      ...worker,
      id: 'acme-worker',
      clientId: 'acme-worker',
      tenant: 'acme',
    };
    const job = await submit();
    const claimed = (await queue.claim(acmeWorker, [type])) as Job;
    clock.advanceSeconds(5);
    await queue.heartbeat(acmeWorker, job.id, claimed.lease!.id);

    await expect(queue.get(submitter, 'acme', job.id)).resolves.toMatchObject({
      state: 'RUNNING',
      lease: { id: claimed.lease!.id, worker: 'acme-worker', workerTenant: 'acme' },
    });
  });

  it('changes a job under a lease id only for the lease’s holder, bound or not', async () => {
    const { stores } = context();
    const now = clock.now();
    const leased = async (workerTenant: string | null) => {
      const job = await submit();
      const lease = { id: uniqueId('lease'), worker: 'w', workerTenant, expiresAt: now };
      await stores.jobs.claimJobs({
        types: [type],
        tenant: 'acme',
        now,
        limit: 1,
        leaseFor: () => lease,
        deadlineAt: () => now,
      });
      return { job, lease };
    };
    const renew = (id: string, leaseId: string, holder: { worker: string; workerTenant: string | null }) =>
      stores.jobs.updateJob(id, { states: ['RUNNING'], leaseId, holder }, { updatedAt: clock.now() });

    const bound = await leased('acme');
    expect(await renew(bound.job.id, bound.lease.id, { worker: 'w', workerTenant: null })).toBe(false);
    expect(await renew(bound.job.id, bound.lease.id, { worker: 'w', workerTenant: 'globex' })).toBe(false);
    expect(await renew(bound.job.id, bound.lease.id, { worker: 'other', workerTenant: 'acme' })).toBe(false);
    expect(await renew(bound.job.id, bound.lease.id, { worker: 'w', workerTenant: 'acme' })).toBe(true);
    const unbound = await leased(null);
    expect(await renew(unbound.job.id, unbound.lease.id, { worker: 'w', workerTenant: 'acme' })).toBe(false);
    expect(await renew(unbound.job.id, unbound.lease.id, { worker: 'w', workerTenant: null })).toBe(true);
  });

  it('refuses the lease id in another worker’s hands: nothing renewed, logged or completed', async () => {
    const job = await submit();
    const claimed = (await queue.claim(worker, [type])) as Job;
    const lease = claimed.lease!.id;
    const thief: ActingPrincipal = { ...worker, id: 'thief', clientId: 'thief' };

    clock.advanceSeconds(5);
    await expect(queue.heartbeat(thief, job.id, lease, 600)).rejects.toMatchObject({ code: 'forbidden' });
    await expect(queue.appendLogs(thief, job.id, lease, ['forged'])).rejects.toMatchObject({
      code: 'forbidden',
    });
    await expect(
      queue.complete(thief, job.id, lease, { outcome: 'succeeded', output: { forged: true } }),
    ).rejects.toMatchObject({ code: 'forbidden' });

    await expect(queue.get(submitter, 'acme', job.id)).resolves.toEqual(claimed);
    await expect(queue.logs(submitter, 'acme', job.id, 0, 10)).resolves.toEqual([]);
  });

  it('confines a bound worker’s claim to its tenant', async () => {
    const globexWorker: ActingPrincipal = { ...worker, id: 'gw', clientId: 'gw', tenant: 'globex' };
    const acme = await submit({}, 'acme');
    const globex = await submit({}, 'globex');

    await expect(queue.claim(globexWorker, [type], { tenant: 'acme' })).rejects.toMatchObject({
      code: 'forbidden',
    });
    await expect(queue.claim(globexWorker, [type])).resolves.toMatchObject({ id: globex.id });
    await expect(queue.claim(globexWorker, [type])).resolves.toBeNull();
    await expect(queue.get(submitter, 'acme', acme.id)).resolves.toMatchObject({
      state: 'QUEUED',
      lease: null,
    });
  });

  it('takes back a job whose worker stopped renewing its lease, and retries it after the backoff', async () => {
    const job = await submit({ retry: { maxAttempts: 2, initialBackoffSeconds: 10, maxBackoffSeconds: 60 } });
    const first = (await queue.claim(worker, [type], { leaseSeconds: 5 })) as Job;

    clock.advanceSeconds(6);
    expect(await queue.sweep()).toBe(1);
    await expect(queue.get(submitter, 'acme', job.id)).resolves.toMatchObject({
      state: 'QUEUED',
      error: { code: 'lease_expired' },
    });
    await expect(queue.claim(worker, [type])).resolves.toBeNull();
    clock.advanceSeconds(10);
    const second = (await queue.claim(worker, [type], { leaseSeconds: 5 })) as Job;
    expect(second).toMatchObject({ id: job.id, attempt: 2 });
    await expect(queue.heartbeat(worker, job.id, first.lease!.id)).rejects.toMatchObject({
      code: 'conflict',
    });

    clock.advanceSeconds(6);
    await queue.sweep();
    await expect(queue.get(submitter, 'acme', job.id)).resolves.toMatchObject({
      state: 'FAILED',
      attempt: 2,
    });
  });

  it('queues a claimed job again at once, its attempt given back, when its worker left before the answer', async () => {
    const job = await submit({ retry: { maxAttempts: 1, initialBackoffSeconds: 60, maxBackoffSeconds: 60 } });
    const claimed = (await queue.claim(worker, [type])) as Job;
    await queue.release(claimed);

    await expect(queue.get(submitter, 'acme', job.id)).resolves.toMatchObject({
      state: 'QUEUED',
      attempt: 0,
      lease: null,
    });
    // Not spent: the one attempt allowed is still there, and no backoff applies.
    const again = (await queue.claim(worker, [type])) as Job;
    expect(again).toMatchObject({ id: job.id, attempt: 1 });
    expect(again.lease!.id).not.toBe(claimed.lease!.id);
    // A stale release (its lease is gone) changes nothing.
    await queue.release(claimed);
    await expect(queue.get(submitter, 'acme', job.id)).resolves.toMatchObject({
      state: 'RUNNING',
      lease: { id: again.lease!.id },
    });
  });

  it('ends a job that runs past its timeout as TIMED_OUT, not retried', async () => {
    const job = await submit({ timeoutSeconds: 20 });
    const claimed = (await queue.claim(worker, [type], { leaseSeconds: 30 })) as Job;
    clock.advanceSeconds(15);
    await queue.heartbeat(worker, job.id, claimed.lease!.id, 30);
    clock.advanceSeconds(6);

    await queue.sweep();
    await expect(queue.get(submitter, 'acme', job.id)).resolves.toMatchObject({
      state: 'TIMED_OUT',
      error: { code: 'timed_out' },
    });
  });

  it('cancels a queued job at once and a running one through its worker’s heartbeat', async () => {
    const queued = await submit();
    const running = await submit();
    await expect(queue.cancel(submitter, 'acme', queued.id)).resolves.toMatchObject({ state: 'CANCELLED' });
    const claimed = (await queue.claim(worker, [type])) as Job;
    expect(claimed.id).toBe(running.id);

    await expect(queue.cancel(submitter, 'acme', running.id)).resolves.toMatchObject({ state: 'CANCELLING' });
    await expect(queue.heartbeat(worker, running.id, claimed.lease!.id)).resolves.toMatchObject({
      cancelRequested: true,
    });
    await expect(
      queue.complete(worker, running.id, claimed.lease!.id, { outcome: 'cancelled' }),
    ).resolves.toMatchObject({ state: 'CANCELLED' });
    await expect(queue.cancel(submitter, 'acme', running.id)).rejects.toMatchObject({ code: 'conflict' });
  });

  it('retries a failure while attempts remain unless the worker says it is final', async () => {
    const job = await submit({ retry: { maxAttempts: 3, initialBackoffSeconds: 0, maxBackoffSeconds: 0 } });
    const one = (await queue.claim(worker, [type])) as Job;
    await expect(
      queue.complete(worker, job.id, one.lease!.id, { outcome: 'failed', message: 'flaky' }),
    ).resolves.toMatchObject({ state: 'QUEUED', error: { message: 'flaky' } });
    const two = (await queue.claim(worker, [type])) as Job;
    await expect(
      queue.complete(worker, job.id, two.lease!.id, {
        outcome: 'failed',
        message: 'bad input',
        retryable: false,
      }),
    ).resolves.toMatchObject({
      state: 'FAILED',
      attempt: 2,
      error: { code: 'worker_error', message: 'bad input' },
    });
  });

  it('lists a tenant’s jobs by state and type, in id order, paged', async () => {
    const tenant = uniqueId('tenant');
    const jobs = [await submit({}, tenant), await submit({}, tenant), await submit({}, tenant)];
    await submit({}, uniqueId('other'));
    await queue.cancel(submitter, tenant, jobs[1].id);

    const all = await queue.list(submitter, { tenant, limit: 10 });
    expect(all.map((j) => j.id)).toEqual(jobs.map((j) => j.id));
    const page = await queue.list(submitter, { tenant, after: jobs[0].id, limit: 1 });
    expect(page.map((j) => j.id)).toEqual([jobs[1].id]);
    const cancelled = await queue.list(submitter, { tenant, state: 'CANCELLED', type, limit: 10 });
    expect(cancelled.map((j) => j.id)).toEqual([jobs[1].id]);
  });
};
