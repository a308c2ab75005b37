// Original file: proto/platform/jobs/v1/jobs.proto

import type { JobState as _platform_jobs_v1_JobState, JobState__Output as _platform_jobs_v1_JobState__Output } from '../../../platform/jobs/v1/JobState';

export interface JobTransition {
  'state'?: (_platform_jobs_v1_JobState);
  /**
   * The attempt the state belongs to (0 before the first).
   */
  'attempt'?: (number);
  /**
   * RFC 3339.
   */
  'at'?: (string);
}

export interface JobTransition__Output {
  'state': (_platform_jobs_v1_JobState__Output);
  /**
   * The attempt the state belongs to (0 before the first).
   */
  'attempt': (number);
  /**
   * RFC 3339.
   */
  'at': (string);
}
