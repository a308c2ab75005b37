// Original file: proto/platform/masking/v1/masking.proto

import type { Operator as _platform_masking_v1_Operator, Operator__Output as _platform_masking_v1_Operator__Output } from '../../../platform/masking/v1/Operator';
import type { CustomPattern as _platform_masking_v1_CustomPattern, CustomPattern__Output as _platform_masking_v1_CustomPattern__Output } from '../../../platform/masking/v1/CustomPattern';

/**
 * What every request shares.
 */
export interface MaskingOptions {
  /**
   * Entity types to look for; empty: every built-in type and every custom pattern.
   */
  'entities'?: (string)[];
  /**
   * The operator of each entity type; "DEFAULT" for the others (default: replace), "FIELD" for
   * the values at field paths.
   */
  'operators'?: ({[key: string]: _platform_masking_v1_Operator});
  /**
   * At most 20.
   */
  'custom_patterns'?: (_platform_masking_v1_CustomPattern)[];
  /**
   * ISO 3166 country of phone numbers written without "+" (default "US").
   */
  'region'?: (string);
}

/**
 * What every request shares.
 */
export interface MaskingOptions__Output {
  /**
   * Entity types to look for; empty: every built-in type and every custom pattern.
   */
  'entities': (string)[];
  /**
   * The operator of each entity type; "DEFAULT" for the others (default: replace), "FIELD" for
   * the values at field paths.
   */
  'operators': ({[key: string]: _platform_masking_v1_Operator__Output});
  /**
   * At most 20.
   */
  'custom_patterns': (_platform_masking_v1_CustomPattern__Output)[];
  /**
   * ISO 3166 country of phone numbers written without "+" (default "US").
   */
  'region': (string);
}
