// Original file: proto/google/rpc/error_details.proto

import type { Duration as _google_protobuf_Duration, Duration__Output as _google_protobuf_Duration__Output } from '../../google/protobuf/Duration';

/**
 * Describes when the client may retry a failed request. Clients should wait at least
 * `retry_delay` before retrying the same request.
 */
export interface RetryInfo {
  /**
   * Clients should wait at least this long between retrying the same request.
   */
  'retry_delay'?: (_google_protobuf_Duration | null);
}

/**
 * Describes when the client may retry a failed request. Clients should wait at least
 * `retry_delay` before retrying the same request.
 */
export interface RetryInfo__Output {
  /**
   * Clients should wait at least this long between retrying the same request.
   */
  'retry_delay': (_google_protobuf_Duration__Output | null);
}
