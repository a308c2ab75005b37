// Original file: proto/platform/auth/v1/auth.proto

import type { StreamReady as _platform_auth_v1_StreamReady, StreamReady__Output as _platform_auth_v1_StreamReady__Output } from '../../../platform/auth/v1/StreamReady';
import type { DenyListEntry as _platform_auth_v1_DenyListEntry, DenyListEntry__Output as _platform_auth_v1_DenyListEntry__Output } from '../../../platform/auth/v1/DenyListEntry';
import type { SeqAdvanced as _platform_auth_v1_SeqAdvanced, SeqAdvanced__Output as _platform_auth_v1_SeqAdvanced__Output } from '../../../platform/auth/v1/SeqAdvanced';
import type { KeysRemoved as _platform_auth_v1_KeysRemoved, KeysRemoved__Output as _platform_auth_v1_KeysRemoved__Output } from '../../../platform/auth/v1/KeysRemoved';
import type { Long } from '@grpc/proto-loader';

export interface Invalidation {
  /**
   * Highest revocation seq the sidecar had applied when it sent this message.
   */
  'seq'?: (number | string | Long);
  /**
   * The stream is live: every later change is sent on it.
   */
  'ready'?: (_platform_auth_v1_StreamReady | null);
  /**
   * A deny-list entry the sidecar applied.
   */
  'revocation'?: (_platform_auth_v1_DenyListEntry | null);
  /**
   * The applied seq moved without a new entry (e.g. a page of entries already known).
   */
  'seq_advanced'?: (_platform_auth_v1_SeqAdvanced | null);
  /**
   * Trusted keys dropped or replaced: tokens signed by them are refused from now on.
   */
  'keys_removed'?: (_platform_auth_v1_KeysRemoved | null);
  'change'?: "ready"|"revocation"|"seq_advanced"|"keys_removed";
}

export interface Invalidation__Output {
  /**
   * Highest revocation seq the sidecar had applied when it sent this message.
   */
  'seq': (number);
  /**
   * The stream is live: every later change is sent on it.
   */
  'ready'?: (_platform_auth_v1_StreamReady__Output | null);
  /**
   * A deny-list entry the sidecar applied.
   */
  'revocation'?: (_platform_auth_v1_DenyListEntry__Output | null);
  /**
   * The applied seq moved without a new entry (e.g. a page of entries already known).
   */
  'seq_advanced'?: (_platform_auth_v1_SeqAdvanced__Output | null);
  /**
   * Trusted keys dropped or replaced: tokens signed by them are refused from now on.
   */
  'keys_removed'?: (_platform_auth_v1_KeysRemoved__Output | null);
  'change'?: "ready"|"revocation"|"seq_advanced"|"keys_removed";
}
