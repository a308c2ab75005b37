// Original file: proto/platform/flags/v1/flags.proto

import type { FlagValue as _platform_flags_v1_FlagValue, FlagValue__Output as _platform_flags_v1_FlagValue__Output } from '../../../platform/flags/v1/FlagValue';

export interface EvaluateFlagRequest {
  /**
   * The caller's access token: its claims make the evaluation context (targetingKey = sub,
   * tenant, user, app = client_id, roles), which caller attributes never override.
   */
  'token'?: (string);
  'flag_key'?: (string);
  /**
   * The type the caller expects: "boolean", "string", "number" or "object".
   */
  'type'?: (string);
  /**
   * Answered when the flag cannot be evaluated; must be of `type`.
   */
  'default_value'?: (_platform_flags_v1_FlagValue | null);
  /**
   * Caller attributes of the evaluation context, a JSON object (email, country, version, ...).
   */
  'context_json'?: (string);
  /**
   * Whose flags; empty: the caller's own tenant's (a user's, a bound app's). An app bound to no
   * tenant names one (INVALID_ARGUMENT otherwise); only a global_admin user and such an app may
   * name another tenant than their own.
   */
  'tenant'?: (string);
}

export interface EvaluateFlagRequest__Output {
  /**
   * The caller's access token: its claims make the evaluation context (targetingKey = sub,
   * tenant, user, app = client_id, roles), which caller attributes never override.
   */
  'token': (string);
  'flag_key': (string);
  /**
   * The type the caller expects: "boolean", "string", "number" or "object".
   */
  'type': (string);
  /**
   * Answered when the flag cannot be evaluated; must be of `type`.
   */
  'default_value': (_platform_flags_v1_FlagValue__Output | null);
  /**
   * Caller attributes of the evaluation context, a JSON object (email, country, version, ...).
   */
  'context_json': (string);
  /**
   * Whose flags; empty: the caller's own tenant's (a user's, a bound app's). An app bound to no
   * tenant names one (INVALID_ARGUMENT otherwise); only a global_admin user and such an app may
   * name another tenant than their own.
   */
  'tenant': (string);
}
