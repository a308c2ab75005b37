// Original file: proto/platform/masking/v1/masking.proto


export interface MaskResponse {
  /**
   * The masked document, as compact JSON.
   */
  'json'?: (string);
  /**
   * How many values at field paths were masked.
   */
  'masked_fields'?: (number);
  /**
   * How many entities were masked inside the other string values.
   */
  'masked_spans'?: (number);
}

export interface MaskResponse__Output {
  /**
   * The masked document, as compact JSON.
   */
  'json': (string);
  /**
   * How many values at field paths were masked.
   */
  'masked_fields': (number);
  /**
   * How many entities were masked inside the other string values.
   */
  'masked_spans': (number);
}
