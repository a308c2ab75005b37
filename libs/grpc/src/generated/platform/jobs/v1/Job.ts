// Original file: proto/platform/jobs/v1/jobs.proto

import type { JobState as _platform_jobs_v1_JobState, JobState__Output as _platform_jobs_v1_JobState__Output } from '../../../platform/jobs/v1/JobState';
import type { JobError as _platform_jobs_v1_JobError, JobError__Output as _platform_jobs_v1_JobError__Output } from '../../../platform/jobs/v1/JobError';

export interface Job {
  /**
   * Time-ordered.
   */
  'id'?: (string);
  'tenant'?: (string);
  'type'?: (string);
  'state'?: (_platform_jobs_v1_JobState);
  /**
   * The state is final.
   */
  'done'?: (boolean);
  'payload_json'?: (string);
  'idempotency_key'?: (string);
  /**
   * A user id or a client_id.
   */
  'submitted_by'?: (string);
  /**
   * Attempts started so far.
   */
  'attempt'?: (number);
  'max_attempts'?: (number);
  'timeout_seconds'?: (number);
  /**
   * RFC 3339: a queued job is not claimed before (the backoff after a failed attempt).
   */
  'run_after'?: (string);
  /**
   * The worker (client_id) holding it, while leased.
   */
  'worker'?: (string);
  'lease_expires_at'?: (string);
  /**
   * The job's answer, JSON, once SUCCEEDED.
   */
  'output_json'?: (string);
  /**
   * Why it did not succeed (a retried failure keeps the last one).
   */
  'error'?: (_platform_jobs_v1_JobError | null);
  'created_at'?: (string);
  'updated_at'?: (string);
  'finished_at'?: (string);
}

export interface Job__Output {
  /**
   * Time-ordered.
   */
  'id': (string);
  'tenant': (string);
  'type': (string);
  'state': (_platform_jobs_v1_JobState__Output);
  /**
   * The state is final.
   */
  'done': (boolean);
  'payload_json': (string);
  'idempotency_key': (string);
  /**
   * A user id or a client_id.
   */
  'submitted_by': (string);
  /**
   * Attempts started so far.
   */
  'attempt': (number);
  'max_attempts': (number);
  'timeout_seconds': (number);
  /**
   * RFC 3339: a queued job is not claimed before (the backoff after a failed attempt).
   */
  'run_after': (string);
  /**
   * The worker (client_id) holding it, while leased.
   */
  'worker': (string);
  'lease_expires_at': (string);
  /**
   * The job's answer, JSON, once SUCCEEDED.
   */
  'output_json': (string);
  /**
   * Why it did not succeed (a retried failure keeps the last one).
   */
  'error': (_platform_jobs_v1_JobError__Output | null);
  'created_at': (string);
  'updated_at': (string);
  'finished_at': (string);
}
