// Original file: proto/platform/masking/v1/masking.proto


/**
 * A pattern of the caller's own, detected as entity type `name`.
 */
export interface CustomPattern {
  /**
   * Upper case, A-Z 0-9 _, at most 64 characters (EMPLOYEE_ID).
   */
  'name'?: (string);
  /**
   * A JavaScript regular expression (Unicode), at most 256 characters, refused when it could
   * backtrack catastrophically (nested quantifiers) or matches the empty string.
   */
  'regex'?: (string);
}

/**
 * A pattern of the caller's own, detected as entity type `name`.
 */
export interface CustomPattern__Output {
  /**
   * Upper case, A-Z 0-9 _, at most 64 characters (EMPLOYEE_ID).
   */
  'name': (string);
  /**
   * A JavaScript regular expression (Unicode), at most 256 characters, refused when it could
   * backtrack catastrophically (nested quantifiers) or matches the empty string.
   */
  'regex': (string);
}
