import { type Job, JobsClient, PlatformClient, ServiceTokenSource } from '@platform/sdk';
import { registerApp } from './oauth';

/** An SDK client acting as a new service app with these scopes, bound to `tenant` when given. */
export async function serviceClient(
  baseUrl: string,
  admin: string,
  platform: Parameters<typeof registerApp>[0],
  clientId: string,
  scopes: string[],
  tenant?: string,
): Promise<{ client: PlatformClient; token: () => Promise<string> }> {
  const app = await registerApp(platform, admin, {
    client_id: clientId,
    declared_scopes: scopes,
    ...(tenant !== undefined && { tenant }),
  });
  const tokens = new ServiceTokenSource({ baseUrl, clientId, clientSecret: app.client_secret! });
  return { client: new PlatformClient({ baseUrl, tokens }), token: () => tokens.getToken() };
}

/** Reads the job until `done` says so (or fails after `timeoutMs`). */
export async function untilJob(
  jobs: JobsClient,
  tenant: string,
  id: string,
  done: (job: Job) => boolean,
  timeoutMs = 15_000,
): Promise<Job> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = await jobs.get(tenant, id);
    if (done(job)) return job;
    if (Date.now() > deadline) throw new Error(`job ${id} is ${job.state} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
