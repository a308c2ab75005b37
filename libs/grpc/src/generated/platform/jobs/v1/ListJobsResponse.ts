// Original file: proto/platform/jobs/v1/jobs.proto

import type { Job as _platform_jobs_v1_Job, Job__Output as _platform_jobs_v1_Job__Output } from '../../../platform/jobs/v1/Job';

export interface ListJobsResponse {
  'jobs'?: (_platform_jobs_v1_Job)[];
  /**
   * Empty on the last page.
   */
  'next_after'?: (string);
}

export interface ListJobsResponse__Output {
  'jobs': (_platform_jobs_v1_Job__Output)[];
  /**
   * Empty on the last page.
   */
  'next_after': (string);
}
