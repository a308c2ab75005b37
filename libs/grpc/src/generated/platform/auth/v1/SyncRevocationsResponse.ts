// Original file: proto/platform/auth/v1/auth.proto

import type { Long } from '@grpc/proto-loader';

export interface SyncRevocationsResponse {
  /**
   * Highest revocation sequence number the sidecar has applied.
   */
  'last_seq'?: (number | string | Long);
}

export interface SyncRevocationsResponse__Output {
  /**
   * Highest revocation sequence number the sidecar has applied.
   */
  'last_seq': (number);
}
