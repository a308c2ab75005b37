import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { DryRunRequest as _platform_policy_v1_DryRunRequest, DryRunRequest__Output as _platform_policy_v1_DryRunRequest__Output } from './platform/policy/v1/DryRunRequest';
import type { EvaluateRequest as _platform_policy_v1_EvaluateRequest, EvaluateRequest__Output as _platform_policy_v1_EvaluateRequest__Output } from './platform/policy/v1/EvaluateRequest';
import type { EvaluateResponse as _platform_policy_v1_EvaluateResponse, EvaluateResponse__Output as _platform_policy_v1_EvaluateResponse__Output } from './platform/policy/v1/EvaluateResponse';
import type { Policy as _platform_policy_v1_Policy, Policy__Output as _platform_policy_v1_Policy__Output } from './platform/policy/v1/Policy';
import type { PolicyServiceClient as _platform_policy_v1_PolicyServiceClient, PolicyServiceDefinition as _platform_policy_v1_PolicyServiceDefinition } from './platform/policy/v1/PolicyService';
import type { Principal as _platform_policy_v1_Principal, Principal__Output as _platform_policy_v1_Principal__Output } from './platform/policy/v1/Principal';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  platform: {
    policy: {
      v1: {
        DryRunRequest: MessageTypeDefinition<_platform_policy_v1_DryRunRequest, _platform_policy_v1_DryRunRequest__Output>
        EvaluateRequest: MessageTypeDefinition<_platform_policy_v1_EvaluateRequest, _platform_policy_v1_EvaluateRequest__Output>
        EvaluateResponse: MessageTypeDefinition<_platform_policy_v1_EvaluateResponse, _platform_policy_v1_EvaluateResponse__Output>
        Policy: MessageTypeDefinition<_platform_policy_v1_Policy, _platform_policy_v1_Policy__Output>
        PolicyService: SubtypeConstructor<typeof grpc.Client, _platform_policy_v1_PolicyServiceClient> & { service: _platform_policy_v1_PolicyServiceDefinition }
        Principal: MessageTypeDefinition<_platform_policy_v1_Principal, _platform_policy_v1_Principal__Output>
      }
    }
  }
}

