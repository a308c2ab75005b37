// Original file: proto/platform/auth/v1/auth.proto

import type { Long } from '@grpc/proto-loader';

export interface DenyListEntry {
  /**
   * "jti" (one access token), "client" (every token of the app issued at or before
   * `created_at`: the app was deleted) or "grant" (every token of the grant).
   */
  'kind'?: (string);
  'value'?: (string);
  /**
   * Unix seconds.
   */
  'created_at'?: (number | string | Long);
}

export interface DenyListEntry__Output {
  /**
   * "jti" (one access token), "client" (every token of the app issued at or before
   * `created_at`: the app was deleted) or "grant" (every token of the grant).
   */
  'kind': (string);
  'value': (string);
  /**
   * Unix seconds.
   */
  'created_at': (number);
}
