// Original file: proto/platform/masking/v1/masking.proto


/**
 * One replacement, where it is in the masked text.
 */
export interface MaskedItem {
  'entity_type'?: (string);
  /**
   * UTF-16 code unit offsets in `MaskStringResponse.text`, end exclusive.
   */
  'start'?: (number);
  'end'?: (number);
  'operator'?: (string);
}

/**
 * One replacement, where it is in the masked text.
 */
export interface MaskedItem__Output {
  'entity_type': (string);
  /**
   * UTF-16 code unit offsets in `MaskStringResponse.text`, end exclusive.
   */
  'start': (number);
  'end': (number);
  'operator': (string);
}
