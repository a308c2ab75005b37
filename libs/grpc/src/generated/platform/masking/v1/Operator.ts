// Original file: proto/platform/masking/v1/masking.proto


/**
 * How one entity type is masked (Presidio's operator config).
 */
export interface Operator {
  /**
   * "redact" (removed), "replace" (by `new_value`, default "<ENTITY_TYPE>"), "mask" (every
   * character but the last `keep_last` by `masking_char`, default "*"), "hash" (HMAC-SHA256 in
   * hex under the caller's tenant's key: equal values mask equally within a tenant only).
   */
  'type'?: (string);
  'new_value'?: (string);
  'masking_char'?: (string);
  'keep_last'?: (number);
}

/**
 * How one entity type is masked (Presidio's operator config).
 */
export interface Operator__Output {
  /**
   * "redact" (removed), "replace" (by `new_value`, default "<ENTITY_TYPE>"), "mask" (every
   * character but the last `keep_last` by `masking_char`, default "*"), "hash" (HMAC-SHA256 in
   * hex under the caller's tenant's key: equal values mask equally within a tenant only).
   */
  'type': (string);
  'new_value': (string);
  'masking_char': (string);
  'keep_last': (number);
}
