// Original file: proto/platform/jobs/v1/jobs.proto


export interface GetJobRequest {
  'token'?: (string);
  /**
   * A user's own tenant when empty; a service token names it.
   */
  'tenant'?: (string);
  'id'?: (string);
}

export interface GetJobRequest__Output {
  'token': (string);
  /**
   * A user's own tenant when empty; a service token names it.
   */
  'tenant': (string);
  'id': (string);
}
