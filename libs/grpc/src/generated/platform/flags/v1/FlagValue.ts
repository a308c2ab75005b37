// Original file: proto/platform/flags/v1/flags.proto


/**
 * A flag value of one of the four OpenFeature types.
 */
export interface FlagValue {
  'bool_value'?: (boolean);
  'string_value'?: (string);
  'number_value'?: (number | string);
  /**
   * An object value, as JSON.
   */
  'object_json'?: (string);
  'value'?: "bool_value"|"string_value"|"number_value"|"object_json";
}

/**
 * A flag value of one of the four OpenFeature types.
 */
export interface FlagValue__Output {
  'bool_value'?: (boolean);
  'string_value'?: (string);
  'number_value'?: (number);
  /**
   * An object value, as JSON.
   */
  'object_json'?: (string);
  'value'?: "bool_value"|"string_value"|"number_value"|"object_json";
}
