// Original file: proto/platform/jobs/v1/jobs.proto

import type { Long } from '@grpc/proto-loader';

export interface GetJobLogsRequest {
  'token'?: (string);
  'tenant'?: (string);
  'id'?: (string);
  /**
   * Lines after this cursor (a page's `next_after`); 0: from the first.
   */
  'after'?: (number | string | Long);
  /**
   * Lines per page, 1 to 1000; 0: 100.
   */
  'limit'?: (number);
  /**
   * Keep the stream open and send new lines until the job ends.
   */
  'follow'?: (boolean);
}

export interface GetJobLogsRequest__Output {
  'token': (string);
  'tenant': (string);
  'id': (string);
  /**
   * Lines after this cursor (a page's `next_after`); 0: from the first.
   */
  'after': (number);
  /**
   * Lines per page, 1 to 1000; 0: 100.
   */
  'limit': (number);
  /**
   * Keep the stream open and send new lines until the job ends.
   */
  'follow': (boolean);
}
