// Original file: proto/platform/jobs/v1/jobs.proto

import type { JobLogLine as _platform_jobs_v1_JobLogLine, JobLogLine__Output as _platform_jobs_v1_JobLogLine__Output } from '../../../platform/jobs/v1/JobLogLine';
import type { Long } from '@grpc/proto-loader';

export interface JobLogPage {
  'lines'?: (_platform_jobs_v1_JobLogLine)[];
  /**
   * The cursor after this page.
   */
  'next_after'?: (number | string | Long);
  /**
   * The job has ended and this page holds its last line.
   */
  'done'?: (boolean);
}

export interface JobLogPage__Output {
  'lines': (_platform_jobs_v1_JobLogLine__Output)[];
  /**
   * The cursor after this page.
   */
  'next_after': (number);
  /**
   * The job has ended and this page holds its last line.
   */
  'done': (boolean);
}
