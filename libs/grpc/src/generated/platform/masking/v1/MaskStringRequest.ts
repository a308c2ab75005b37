// Original file: proto/platform/masking/v1/masking.proto

import type { MaskingOptions as _platform_masking_v1_MaskingOptions, MaskingOptions__Output as _platform_masking_v1_MaskingOptions__Output } from '../../../platform/masking/v1/MaskingOptions';

export interface MaskStringRequest {
  /**
   * The caller's access token: its own tenant chooses the hash key (a user's, a bound app's; an
   * app bound to no tenant: the platform's).
   */
  'token'?: (string);
  /**
   * The whole message is at most 1 MiB.
   */
  'text'?: (string);
  'options'?: (_platform_masking_v1_MaskingOptions | null);
}

export interface MaskStringRequest__Output {
  /**
   * The caller's access token: its own tenant chooses the hash key (a user's, a bound app's; an
   * app bound to no tenant: the platform's).
   */
  'token': (string);
  /**
   * The whole message is at most 1 MiB.
   */
  'text': (string);
  'options': (_platform_masking_v1_MaskingOptions__Output | null);
}
