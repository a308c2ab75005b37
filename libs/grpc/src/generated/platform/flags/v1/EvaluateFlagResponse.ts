// Original file: proto/platform/flags/v1/flags.proto

import type { FlagValue as _platform_flags_v1_FlagValue, FlagValue__Output as _platform_flags_v1_FlagValue__Output } from '../../../platform/flags/v1/FlagValue';

export interface EvaluateFlagResponse {
  'value'?: (_platform_flags_v1_FlagValue | null);
  /**
   * The variant chosen; empty on ERROR.
   */
  'variant'?: (string);
  /**
   * OpenFeature's reason: STATIC, TARGETING_MATCH, SPLIT, DEFAULT, DISABLED, ERROR.
   */
  'reason'?: (string);
  /**
   * OpenFeature's error code when reason is ERROR: FLAG_NOT_FOUND, TYPE_MISMATCH, PARSE_ERROR,
   * GENERAL.
   */
  'error_code'?: (string);
  'error_message'?: (string);
  /**
   * The flag's (and flag set's) metadata, as JSON.
   */
  'flag_metadata_json'?: (string);
}

export interface EvaluateFlagResponse__Output {
  'value': (_platform_flags_v1_FlagValue__Output | null);
  /**
   * The variant chosen; empty on ERROR.
   */
  'variant': (string);
  /**
   * OpenFeature's reason: STATIC, TARGETING_MATCH, SPLIT, DEFAULT, DISABLED, ERROR.
   */
  'reason': (string);
  /**
   * OpenFeature's error code when reason is ERROR: FLAG_NOT_FOUND, TYPE_MISMATCH, PARSE_ERROR,
   * GENERAL.
   */
  'error_code': (string);
  'error_message': (string);
  /**
   * The flag's (and flag set's) metadata, as JSON.
   */
  'flag_metadata_json': (string);
}
