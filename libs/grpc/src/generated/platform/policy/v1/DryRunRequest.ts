// Original file: proto/platform/policy/v1/policy.proto

import type { EvaluateRequest as _platform_policy_v1_EvaluateRequest, EvaluateRequest__Output as _platform_policy_v1_EvaluateRequest__Output } from '../../../platform/policy/v1/EvaluateRequest';
import type { Policy as _platform_policy_v1_Policy, Policy__Output as _platform_policy_v1_Policy__Output } from '../../../platform/policy/v1/Policy';

export interface DryRunRequest {
  'request'?: (_platform_policy_v1_EvaluateRequest | null);
  'candidate_policies'?: (_platform_policy_v1_Policy)[];
}

export interface DryRunRequest__Output {
  'request': (_platform_policy_v1_EvaluateRequest__Output | null);
  'candidate_policies': (_platform_policy_v1_Policy__Output)[];
}
