// Original file: proto/platform/entitlements/v1/entitlements.proto

import type { Value as _google_protobuf_Value, Value__Output as _google_protobuf_Value__Output } from '../../../google/protobuf/Value';

export interface CheckEntitlementResponse {
  /**
   * On: `true`, an enum value (any string), or a number at least `amount`. Off: `false`, a number
   * below `amount`, or a feature the plan does not name.
   */
  'entitled'?: (boolean);
  /**
   * The feature's value (a bool, a string or a number); unset when the plan does not name it.
   */
  'value'?: (_google_protobuf_Value | null);
  /**
   * The plan in force; empty when the tenant has none.
   */
  'plan'?: (string);
}

export interface CheckEntitlementResponse__Output {
  /**
   * On: `true`, an enum value (any string), or a number at least `amount`. Off: `false`, a number
   * below `amount`, or a feature the plan does not name.
   */
  'entitled': (boolean);
  /**
   * The feature's value (a bool, a string or a number); unset when the plan does not name it.
   */
  'value': (_google_protobuf_Value__Output | null);
  /**
   * The plan in force; empty when the tenant has none.
   */
  'plan': (string);
}
