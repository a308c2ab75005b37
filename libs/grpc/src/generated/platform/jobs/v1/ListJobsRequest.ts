// Original file: proto/platform/jobs/v1/jobs.proto

import type { JobState as _platform_jobs_v1_JobState, JobState__Output as _platform_jobs_v1_JobState__Output } from '../../../platform/jobs/v1/JobState';

export interface ListJobsRequest {
  'token'?: (string);
  'tenant'?: (string);
  /**
   * Only jobs in this state; JOB_STATE_UNSPECIFIED: any.
   */
  'state'?: (_platform_jobs_v1_JobState);
  /**
   * Only jobs of this type; empty: any.
   */
  'type'?: (string);
  /**
   * The `next_after` of the previous page.
   */
  'after'?: (string);
  /**
   * 1 to 1000; 0: 100.
   */
  'limit'?: (number);
}

export interface ListJobsRequest__Output {
  'token': (string);
  'tenant': (string);
  /**
   * Only jobs in this state; JOB_STATE_UNSPECIFIED: any.
   */
  'state': (_platform_jobs_v1_JobState__Output);
  /**
   * Only jobs of this type; empty: any.
   */
  'type': (string);
  /**
   * The `next_after` of the previous page.
   */
  'after': (string);
  /**
   * 1 to 1000; 0: 100.
   */
  'limit': (number);
}
