// Original file: proto/platform/entitlements/v1/entitlements.proto

import type { Long } from '@grpc/proto-loader';

/**
 * A limit on a meter per window, as the plan (or an override) sets it.
 */
export interface Quota {
  /**
   * Units per window.
   */
  'limit'?: (number | string | Long);
  /**
   * The window: "hour", "day" or "month" (calendar), in the tenant's zone.
   */
  'period'?: (string);
  /**
   * "hard": consumption past the limit is refused; "soft": counted on, only announced.
   */
  'enforcement'?: (string);
  /**
   * Percentages of the limit whose crossing is audited (`quota.threshold_reached`, so a webhook
   * event), once a window; ascending.
   */
  'thresholds'?: (number)[];
}

/**
 * A limit on a meter per window, as the plan (or an override) sets it.
 */
export interface Quota__Output {
  /**
   * Units per window.
   */
  'limit': (number);
  /**
   * The window: "hour", "day" or "month" (calendar), in the tenant's zone.
   */
  'period': (string);
  /**
   * "hard": consumption past the limit is refused; "soft": counted on, only announced.
   */
  'enforcement': (string);
  /**
   * Percentages of the limit whose crossing is audited (`quota.threshold_reached`, so a webhook
   * event), once a window; ascending.
   */
  'thresholds': (number)[];
}
