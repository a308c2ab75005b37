// Original file: proto/platform/jobs/v1/jobs.proto


export interface SubmitJobRequest {
  /**
   * The caller's access token.
   */
  'token'?: (string);
  /**
   * Whose job; a user's own tenant when empty. A service token names it.
   */
  'tenant'?: (string);
  /**
   * What the job is (workers claim by type): 1 to 64 of a-z 0-9 . _ - starting with a letter.
   */
  'type'?: (string);
  /**
   * The work order, JSON (at most 32 KiB); empty: null.
   */
  'payload_json'?: (string);
  /**
   * Makes the submission idempotent within the tenant.
   */
  'idempotency_key'?: (string);
  /**
   * How long one attempt may run; 0: 3600.
   */
  'timeout_seconds'?: (number);
  /**
   * Attempts in all (1 to 25); 0: 3.
   */
  'max_attempts'?: (number);
  /**
   * The wait before the second attempt, doubling for each next one; unset: 1.
   */
  'initial_backoff_seconds'?: (number);
  /**
   * The longest wait between attempts; unset: 300.
   */
  'max_backoff_seconds'?: (number);
  '_initial_backoff_seconds'?: "initial_backoff_seconds";
  '_max_backoff_seconds'?: "max_backoff_seconds";
}

export interface SubmitJobRequest__Output {
  /**
   * The caller's access token.
   */
  'token': (string);
  /**
   * Whose job; a user's own tenant when empty. A service token names it.
   */
  'tenant': (string);
  /**
   * What the job is (workers claim by type): 1 to 64 of a-z 0-9 . _ - starting with a letter.
   */
  'type': (string);
  /**
   * The work order, JSON (at most 32 KiB); empty: null.
   */
  'payload_json': (string);
  /**
   * Makes the submission idempotent within the tenant.
   */
  'idempotency_key': (string);
  /**
   * How long one attempt may run; 0: 3600.
   */
  'timeout_seconds': (number);
  /**
   * Attempts in all (1 to 25); 0: 3.
   */
  'max_attempts': (number);
  /**
   * The wait before the second attempt, doubling for each next one; unset: 1.
   */
  'initial_backoff_seconds'?: (number);
  /**
   * The longest wait between attempts; unset: 300.
   */
  'max_backoff_seconds'?: (number);
  '_initial_backoff_seconds'?: "initial_backoff_seconds";
  '_max_backoff_seconds'?: "max_backoff_seconds";
}
