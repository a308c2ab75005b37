// Original file: proto/platform/entitlements/v1/entitlements.proto

import type { Long } from '@grpc/proto-loader';

export interface CheckEntitlementRequest {
  /**
   * The caller's access token.
   */
  'token'?: (string);
  /**
   * Whose entitlements; empty: the caller's own tenant's (a user's, a bound app's). An app bound
   * to no tenant names one; only a global_admin user and such an app may name another tenant
   * than their own.
   */
  'tenant'?: (string);
  /**
   * The feature: 1 to 64 of a-z 0-9 _ . -, starting with a letter (`sso`, `seats`).
   */
  'feature'?: (string);
  /**
   * For a numeric feature (a limit such as seats): entitled when the value is at least this;
   * 0 means 1. Ignored for an on/off or enum feature.
   */
  'amount'?: (number | string | Long);
}

export interface CheckEntitlementRequest__Output {
  /**
   * The caller's access token.
   */
  'token': (string);
  /**
   * Whose entitlements; empty: the caller's own tenant's (a user's, a bound app's). An app bound
   * to no tenant names one; only a global_admin user and such an app may name another tenant
   * than their own.
   */
  'tenant': (string);
  /**
   * The feature: 1 to 64 of a-z 0-9 _ . -, starting with a letter (`sso`, `seats`).
   */
  'feature': (string);
  /**
   * For a numeric feature (a limit such as seats): entitled when the value is at least this;
   * 0 means 1. Ignored for an on/off or enum feature.
   */
  'amount': (number);
}
