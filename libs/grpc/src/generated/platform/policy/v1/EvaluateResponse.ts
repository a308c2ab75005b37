// Original file: proto/platform/policy/v1/policy.proto


export interface EvaluateResponse {
  /**
   * "allow" or "deny".
   */
  'decision'?: (string);
  /**
   * Ids of the policies that decided, including the scope check "token-scope" when it took
   * part; empty for the default deny of a user whose scopes cover the action.
   */
  'decided_by'?: (string)[];
  'reason'?: (string);
  /**
   * Unique per evaluation, for correlating logs and audit records.
   */
  'decision_id'?: (string);
  /**
   * False for DryRun.
   */
  'enforced'?: (boolean);
}

export interface EvaluateResponse__Output {
  /**
   * "allow" or "deny".
   */
  'decision': (string);
  /**
   * Ids of the policies that decided, including the scope check "token-scope" when it took
   * part; empty for the default deny of a user whose scopes cover the action.
   */
  'decided_by': (string)[];
  'reason': (string);
  /**
   * Unique per evaluation, for correlating logs and audit records.
   */
  'decision_id': (string);
  /**
   * False for DryRun.
   */
  'enforced': (boolean);
}
