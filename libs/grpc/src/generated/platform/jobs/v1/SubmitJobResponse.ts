// Original file: proto/platform/jobs/v1/jobs.proto

import type { Job as _platform_jobs_v1_Job, Job__Output as _platform_jobs_v1_Job__Output } from '../../../platform/jobs/v1/Job';

export interface SubmitJobResponse {
  'job'?: (_platform_jobs_v1_Job | null);
  /**
   * false: the idempotency key's earlier job.
   */
  'created'?: (boolean);
}

export interface SubmitJobResponse__Output {
  'job': (_platform_jobs_v1_Job__Output | null);
  /**
   * false: the idempotency key's earlier job.
   */
  'created': (boolean);
}
