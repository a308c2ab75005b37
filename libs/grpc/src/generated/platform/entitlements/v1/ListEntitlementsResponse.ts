// Original file: proto/platform/entitlements/v1/entitlements.proto

import type { Value as _google_protobuf_Value, Value__Output as _google_protobuf_Value__Output } from '../../../google/protobuf/Value';
import type { Quota as _platform_entitlements_v1_Quota, Quota__Output as _platform_entitlements_v1_Quota__Output } from '../../../platform/entitlements/v1/Quota';

export interface ListEntitlementsResponse {
  /**
   * The plan in force; empty when the tenant has none (no subscription, or between assignments).
   */
  'plan'?: (string);
  /**
   * The IANA time zone the tenant's days and months count in ("UTC" unless its subscription
   * names another).
   */
  'zone'?: (string);
  /**
   * Features by name: a bool (on/off), a string (an enum value) or a number (a limit such as
   * seats).
   */
  'features'?: ({[key: string]: _google_protobuf_Value});
  /**
   * Quotas by meter name.
   */
  'quotas'?: ({[key: string]: _platform_entitlements_v1_Quota});
}

export interface ListEntitlementsResponse__Output {
  /**
   * The plan in force; empty when the tenant has none (no subscription, or between assignments).
   */
  'plan': (string);
  /**
   * The IANA time zone the tenant's days and months count in ("UTC" unless its subscription
   * names another).
   */
  'zone': (string);
  /**
   * Features by name: a bool (on/off), a string (an enum value) or a number (a limit such as
   * seats).
   */
  'features': ({[key: string]: _google_protobuf_Value__Output});
  /**
   * Quotas by meter name.
   */
  'quotas': ({[key: string]: _platform_entitlements_v1_Quota__Output});
}
