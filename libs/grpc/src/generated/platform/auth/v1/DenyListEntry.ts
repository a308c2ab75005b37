// Original file: proto/platform/auth/v1/auth.proto

import type { Long } from '@grpc/proto-loader';

export interface DenyListEntry {
  /**
   * "jti" (one access token), "client" (every token of the app issued at or before
   * `created_at`: the app was deleted), "subject" (every token of the user `sub`, or in whose
   * `act` chain the user acts, issued at or before `created_at`: the user was deprovisioned),
   * "grant" (every token of the grant), or "secret" (no token: the app's secret was rotated at
   * `created_at`; forget any authentication of the app remembered before). Never in
   * `ready.deny_list`.
   */
  'kind'?: (string);
  'value'?: (string);
  /**
   * Unix seconds; what `client` and `subject` entries are judged by (0 in `ready` for the others).
   */
  'created_at'?: (number | string | Long);
  /**
   * Unix seconds after which no token the entry denies is valid any more: it can be dropped.
   */
  'expires_at'?: (number | string | Long);
}

export interface DenyListEntry__Output {
  /**
   * "jti" (one access token), "client" (every token of the app issued at or before
   * `created_at`: the app was deleted), "subject" (every token of the user `sub`, or in whose
   * `act` chain the user acts, issued at or before `created_at`: the user was deprovisioned),
   * "grant" (every token of the grant), or "secret" (no token: the app's secret was rotated at
   * `created_at`; forget any authentication of the app remembered before). Never in
   * `ready.deny_list`.
   */
  'kind': (string);
  'value': (string);
  /**
   * Unix seconds; what `client` and `subject` entries are judged by (0 in `ready` for the others).
   */
  'created_at': (number);
  /**
   * Unix seconds after which no token the entry denies is valid any more: it can be dropped.
   */
  'expires_at': (number);
}
