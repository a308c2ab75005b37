// Original file: proto/platform/masking/v1/masking.proto

import type { MaskedItem as _platform_masking_v1_MaskedItem, MaskedItem__Output as _platform_masking_v1_MaskedItem__Output } from '../../../platform/masking/v1/MaskedItem';

export interface MaskStringResponse {
  'text'?: (string);
  'items'?: (_platform_masking_v1_MaskedItem)[];
}

export interface MaskStringResponse__Output {
  'text': (string);
  'items': (_platform_masking_v1_MaskedItem__Output)[];
}
