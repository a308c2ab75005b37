import type { PlatformClient } from './platform-client';
import type {
  Job,
  JobLogPage,
  JobPage,
  JobSubmission,
  JobSubmissionResult,
  JobSubmissionResults,
  JobTransitionPage,
} from './wire';

export interface JobListQuery {
  state?: Job['state'];
  type?: string;
  after?: string;
  limit?: number;
}

/**
 * A tenant's jobs (docs/jobs.md): submit and cancel with `jobs.write`, read with `jobs.read`.
 * The worker's side is `JobWorker`.
 */
export class JobsClient {
  constructor(readonly client: PlatformClient) {}

  /** Queues a job; with an idempotency key used before, answers the job it made. */
  submit(tenant: string, submission: JobSubmission): Promise<Job> {
    return this.client.json<Job>(jobsPath(tenant), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(submission),
    });
  }

  /**
   * Queues up to 100 jobs in one call, each judged alone: a result for each, in their order,
   * with the job (`created: false`: its idempotency key's earlier job) or `refused: {status, detail}`.
   */
  submitMany(tenant: string, submissions: JobSubmission[]): Promise<JobSubmissionResult[]> {
    return this.client
      .json<JobSubmissionResults>(`${jobsPath(tenant)}/batch`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jobs: submissions }),
      })
      .then((answer) => answer.results);
  }

  get(tenant: string, id: string): Promise<Job> {
    return this.client.json<Job>(`${jobsPath(tenant)}/${encodeURIComponent(id)}`);
  }

  list(tenant: string, query: JobListQuery = {}): Promise<JobPage> {
    return this.client.json<JobPage>(`${jobsPath(tenant)}${search(query)}`);
  }

  cancel(tenant: string, id: string): Promise<Job> {
    return this.client.json<Job>(`${jobsPath(tenant)}/${encodeURIComponent(id)}/cancel`, { method: 'POST' });
  }

  /** The ended job with its output or error (409 while it runs). */
  output(tenant: string, id: string): Promise<Job> {
    return this.client.json<Job>(`${jobsPath(tenant)}/${encodeURIComponent(id)}/output`);
  }

  logs(tenant: string, id: string, page: { after?: number; limit?: number } = {}): Promise<JobLogPage> {
    return this.client.json<JobLogPage>(`${jobsPath(tenant)}/${encodeURIComponent(id)}/logs${search(page)}`);
  }

  transitions(tenant: string, id: string, after = 0): Promise<JobTransitionPage> {
    return this.client.json<JobTransitionPage>(
      `${jobsPath(tenant)}/${encodeURIComponent(id)}/transitions?after=${after}`,
    );
  }
}

const jobsPath = (tenant: string) => `/api/v1/tenants/${encodeURIComponent(tenant)}/jobs`;

function search(query: object): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query) as Array<[string, unknown]>) {
    if (value !== undefined) params.set(name, String(value));
  }
  return params.size > 0 ? `?${params}` : '';
}
