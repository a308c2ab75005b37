// Original file: proto/platform/auth/v1/auth.proto

import type { StreamReady as _platform_auth_v1_StreamReady, StreamReady__Output as _platform_auth_v1_StreamReady__Output } from '../../../platform/auth/v1/StreamReady';
import type { DenyListEntry as _platform_auth_v1_DenyListEntry, DenyListEntry__Output as _platform_auth_v1_DenyListEntry__Output } from '../../../platform/auth/v1/DenyListEntry';
import type { SeqAdvanced as _platform_auth_v1_SeqAdvanced, SeqAdvanced__Output as _platform_auth_v1_SeqAdvanced__Output } from '../../../platform/auth/v1/SeqAdvanced';
import type { KeysChanged as _platform_auth_v1_KeysChanged, KeysChanged__Output as _platform_auth_v1_KeysChanged__Output } from '../../../platform/auth/v1/KeysChanged';
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
   * The trusted key set changed (a key added, dropped or replaced): the whole new set.
   * Tokens signed by a key no longer in it are refused from now on.
   */
  'keys_changed'?: (_platform_auth_v1_KeysChanged | null);
  'change'?: "ready"|"revocation"|"seq_advanced"|"keys_changed";
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
   * The trusted key set changed (a key added, dropped or replaced): the whole new set.
   * Tokens signed by a key no longer in it are refused from now on.
   */
  'keys_changed'?: (_platform_auth_v1_KeysChanged__Output | null);
  'change'?: "ready"|"revocation"|"seq_advanced"|"keys_changed";
}
