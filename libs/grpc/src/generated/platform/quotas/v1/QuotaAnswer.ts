// Original file: proto/platform/quotas/v1/quotas.proto

import type { Timestamp as _google_protobuf_Timestamp, Timestamp__Output as _google_protobuf_Timestamp__Output } from '../../../google/protobuf/Timestamp';
import type { Long } from '@grpc/proto-loader';

export interface QuotaAnswer {
  /**
   * False when no quota of the tenant's plan limits the meter: nothing counted, and every other
   * field but `granted` (true) is empty.
   */
  'limited'?: (boolean);
  /**
   * ConsumeQuota: the units were counted (always true: a refusal is RESOURCE_EXHAUSTED).
   * GetQuotaUsage: one more unit would be granted now (false once a hard limit is reached).
   */
  'granted'?: (boolean);
  /**
   * A retry whose idempotency key was already counted: the first consumption's count, nothing
   * counted again.
   */
  'replayed'?: (boolean);
  /**
   * Units counted in the window, this consumption included.
   */
  'used'?: (number | string | Long);
  /**
   * The quota's limit per window.
   */
  'limit'?: (number | string | Long);
  /**
   * Units left in the window (0 at or past the limit).
   */
  'remaining'?: (number | string | Long);
  /**
   * When the window began.
   */
  'period_start'?: (_google_protobuf_Timestamp | null);
  /**
   * When the window ends and the count starts again from 0.
   */
  'reset_time'?: (_google_protobuf_Timestamp | null);
  /**
   * "hard" (past the limit is refused) or "soft" (counted on, only announced).
   */
  'enforcement'?: (string);
}

export interface QuotaAnswer__Output {
  /**
   * False when no quota of the tenant's plan limits the meter: nothing counted, and every other
   * field but `granted` (true) is empty.
   */
  'limited': (boolean);
  /**
   * ConsumeQuota: the units were counted (always true: a refusal is RESOURCE_EXHAUSTED).
   * GetQuotaUsage: one more unit would be granted now (false once a hard limit is reached).
   */
  'granted': (boolean);
  /**
   * A retry whose idempotency key was already counted: the first consumption's count, nothing
   * counted again.
   */
  'replayed': (boolean);
  /**
   * Units counted in the window, this consumption included.
   */
  'used': (number);
  /**
   * The quota's limit per window.
   */
  'limit': (number);
  /**
   * Units left in the window (0 at or past the limit).
   */
  'remaining': (number);
  /**
   * When the window began.
   */
  'period_start': (_google_protobuf_Timestamp__Output | null);
  /**
   * When the window ends and the count starts again from 0.
   */
  'reset_time': (_google_protobuf_Timestamp__Output | null);
  /**
   * "hard" (past the limit is refused) or "soft" (counted on, only announced).
   */
  'enforcement': (string);
}
