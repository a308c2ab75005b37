// Original file: proto/platform/auth/v1/auth.proto

import type { TokenClaims as _platform_auth_v1_TokenClaims, TokenClaims__Output as _platform_auth_v1_TokenClaims__Output } from '../../../platform/auth/v1/TokenClaims';

export interface AuthorizeResponse {
  'claims'?: (_platform_auth_v1_TokenClaims | null);
  'decided_by'?: (string)[];
  'decision_id'?: (string);
}

export interface AuthorizeResponse__Output {
  'claims': (_platform_auth_v1_TokenClaims__Output | null);
  'decided_by': (string)[];
  'decision_id': (string);
}
