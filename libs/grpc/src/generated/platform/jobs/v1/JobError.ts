// Original file: proto/platform/jobs/v1/jobs.proto


export interface JobError {
  /**
   * worker_error, lease_expired, timed_out, cancelled.
   */
  'code'?: (string);
  'message'?: (string);
}

export interface JobError__Output {
  /**
   * worker_error, lease_expired, timed_out, cancelled.
   */
  'code': (string);
  'message': (string);
}
