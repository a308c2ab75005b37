// Original file: proto/platform/masking/v1/masking.proto

import type { MaskingOptions as _platform_masking_v1_MaskingOptions, MaskingOptions__Output as _platform_masking_v1_MaskingOptions__Output } from '../../../platform/masking/v1/MaskingOptions';

export interface MaskRequest {
  'token'?: (string);
  /**
   * The JSON document (the whole message is at most 1 MiB).
   */
  'json'?: (string);
  /**
   * Dotted paths masked whole: "user.email", "cards[*].number", "*.ssn" ("*" any member or index).
   */
  'field_paths'?: (string)[];
  'detect_in_values'?: (boolean);
  'options'?: (_platform_masking_v1_MaskingOptions | null);
}

export interface MaskRequest__Output {
  'token': (string);
  /**
   * The JSON document (the whole message is at most 1 MiB).
   */
  'json': (string);
  /**
   * Dotted paths masked whole: "user.email", "cards[*].number", "*.ssn" ("*" any member or index).
   */
  'field_paths': (string)[];
  'detect_in_values': (boolean);
  'options': (_platform_masking_v1_MaskingOptions__Output | null);
}
