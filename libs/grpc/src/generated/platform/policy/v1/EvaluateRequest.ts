// Original file: proto/platform/policy/v1/policy.proto

import type { Principal as _platform_policy_v1_Principal, Principal__Output as _platform_policy_v1_Principal__Output } from '../../../platform/policy/v1/Principal';

export interface EvaluateRequest {
  'principal'?: (_platform_policy_v1_Principal | null);
  /**
   * Scope-shaped action, e.g. "jobs.read".
   */
  'action'?: (string);
  /**
   * Tenant the resource belongs to; empty for platform-wide resources.
   */
  'resource_tenant'?: (string);
}

export interface EvaluateRequest__Output {
  'principal': (_platform_policy_v1_Principal__Output | null);
  /**
   * Scope-shaped action, e.g. "jobs.read".
   */
  'action': (string);
  /**
   * Tenant the resource belongs to; empty for platform-wide resources.
   */
  'resource_tenant': (string);
}
