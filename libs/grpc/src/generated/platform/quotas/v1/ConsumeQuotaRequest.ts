// Original file: proto/platform/quotas/v1/quotas.proto

import type { Long } from '@grpc/proto-loader';

export interface ConsumeQuotaRequest {
  /**
   * The caller's access token.
   */
  'token'?: (string);
  /**
   * Whose quota; empty: the caller's own tenant's (a user's, a bound app's). An app bound to no
   * tenant names one; only a global_admin user and such an app may name another tenant than
   * their own.
   */
  'tenant'?: (string);
  /**
   * The meter: 1 to 64 of a-z 0-9 _ . -, starting with a letter (`exports`, `api_calls`).
   */
  'meter'?: (string);
  /**
   * How many units to consume, at most 1000000000; 0 means 1.
   */
  'units'?: (number | string | Long);
  /**
   * Makes the consumption idempotent within the tenant's meter and window: a retry with the same
   * key (at most 128 characters) counts nothing more. Empty: every call counts.
   */
  'idempotency_key'?: (string);
}

export interface ConsumeQuotaRequest__Output {
  /**
   * The caller's access token.
   */
  'token': (string);
  /**
   * Whose quota; empty: the caller's own tenant's (a user's, a bound app's). An app bound to no
   * tenant names one; only a global_admin user and such an app may name another tenant than
   * their own.
   */
  'tenant': (string);
  /**
   * The meter: 1 to 64 of a-z 0-9 _ . -, starting with a letter (`exports`, `api_calls`).
   */
  'meter': (string);
  /**
   * How many units to consume, at most 1000000000; 0 means 1.
   */
  'units': (number);
  /**
   * Makes the consumption idempotent within the tenant's meter and window: a retry with the same
   * key (at most 128 characters) counts nothing more. Empty: every call counts.
   */
  'idempotency_key': (string);
}
