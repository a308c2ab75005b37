import { JobWorker, type JobWorkerOptions } from './job-worker';
import { PlatformClient } from './platform-client';

interface Call {
  path: string;
  body: Record<string, unknown>;
}

const job = (id: string) => ({
  id,
  tenant: 'acme',
  type: 'report.render',
  state: 'RUNNING',
  payload: { id },
  lease: { id: `lease-${id}`, expires_at: '2026-11-28T12:00:30Z' },
});

/**
 * The worker's loop against a stand-in backend (`answer` per call, in order): what it sends, and
 * what it does with each answer. The real platform: test/e2e/jobs/jobs-lifecycle.e2e-spec.ts and
 * the rolling restart (a claim cut short by a draining backend).
 */
function standIn(answers: Array<(call: Call) => Response>) {
  const calls: Call[] = [];
  const client = new PlatformClient({
    baseUrl: 'http://backend.test',
    tokens: { getToken: async () => 'token', renew: async () => undefined },
    fetch: async (url, init) => {
      const call = { path: new URL(String(url)).pathname, body: JSON.parse(String(init?.body ?? '{}')) };
      calls.push(call);
      const answer = answers.shift();
      if (answer) return answer(call);
      // Nothing more to hand out: a long poll that waits until the worker stops.
      return new Promise<Response>((_, reject) =>
        init?.signal?.addEventListener('abort', () => reject(new Error('aborted'))),
      );
    },
  });
  return { client, calls };
}

const json = (body: unknown) => () => Response.json(body);

/** Runs a worker of `report.render` a moment, then stops it; answers what `onError` was told. */
async function runWorker(client: PlatformClient, options: Pick<JobWorkerOptions, 'handler' | 'concurrency'>) {
  const errors: unknown[] = [];
  const worker = new JobWorker(client, {
    types: ['report.render'],
    ...options,
    onError: (error) => errors.push(error),
  });
  worker.start();
  await new Promise((resolve) => setTimeout(resolve, 50));
  await worker.stop();
  return errors;
}

describe('JobWorker', () => {
  it('claims as many as it has free slots, and reports the jobs that end together in one call', async () => {
    const { client, calls } = standIn([
      json({ jobs: [job('a'), job('b'), job('c')] }),
      (call) =>
        Response.json({
          results: (call.body.completions as Array<{ id: string }>).map(({ id }) => ({
            id,
            state: 'SUCCEEDED',
          })),
        }),
    ]);
    const ran: string[] = [];
    const errors = await runWorker(client, {
      concurrency: 3,
      handler: async (payload) => {
        ran.push((payload as { id: string }).id);
        return { ok: true };
      },
    });

    expect(ran).toEqual(['a', 'b', 'c']);
    expect(calls[0]).toMatchObject({ path: '/api/v1/jobs/claims', body: { max_jobs: 3 } });
    expect(calls[1]).toEqual({
      path: '/api/v1/jobs/completions',
      body: {
        completions: ['a', 'b', 'c'].map((id) => ({
          id,
          lease_id: `lease-${id}`,
          outcome: 'succeeded',
          output: { ok: true },
        })),
      },
    });
    expect(errors).toEqual([]);
  });

  it('asks again after a 204 from a draining backend, telling nobody of an error', async () => {
    const { client, calls } = standIn([
      () => new Response(null, { status: 204 }),
      json({ jobs: [job('a')] }),
      json({ results: [{ id: 'a', state: 'SUCCEEDED' }] }),
    ]);
    const errors = await runWorker(client, { handler: async () => null });

    expect(calls.map((c) => c.path).slice(0, 3)).toEqual([
      '/api/v1/jobs/claims',
      '/api/v1/jobs/claims',
      '/api/v1/jobs/completions',
    ]);
    expect(errors).toEqual([]);
  });

  it('tells onError of a report the platform refused, with its status', async () => {
    const { client } = standIn([
      json({ jobs: [job('a')] }),
      json({ results: [{ id: 'a', refused: { status: 409, detail: 'the lease on job a is gone' } }] }),
    ]);
    const errors = await runWorker(client, { handler: async () => null });

    expect(errors).toEqual([expect.objectContaining({ status: 409 })]);
  });
});
