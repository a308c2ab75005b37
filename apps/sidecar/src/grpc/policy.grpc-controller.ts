import { Controller } from '@nestjs/common';
import { GrpcMethod } from '@nestjs/microservices';
import { isAction, parsePolicy, type Policy, type PolicyRequest } from '@platform/domain';
import type { DryRunRequest, EvaluateRequest, EvaluateResponse } from '@platform/grpc';
import { invalidArgument } from '../authorization/authorization.error';
import { type Decision, PolicyDecider } from '../authorization/policy-decider';
import { principalOfMessage } from '../authorization/principals';

/** A DryRun may add this many candidate policies; more is not a policy review, it is a mistake. */
export const MAX_CANDIDATE_POLICIES = 100;

/**
 * `platform.policy.v1.PolicyService`: Evaluate decides a described request against the active
 * policies (enforced); DryRun does the same with candidate policies added (not enforced). Both
 * answer the decision, allow or deny; only a malformed request fails (INVALID_ARGUMENT).
 */
@Controller()
export class PolicyGrpcController {
  constructor(private readonly decider: PolicyDecider) {}

  @GrpcMethod('PolicyService', 'Evaluate')
  evaluate(request: EvaluateRequest | null): EvaluateResponse {
    return toResponse(this.decider.decide(policyRequestOf(request), { enforced: true }));
  }

  @GrpcMethod('PolicyService', 'DryRun')
  dryRun(message: DryRunRequest): EvaluateResponse {
    return toResponse(
      this.decider.decide(policyRequestOf(message.request), {
        candidates: candidatesOf(message.candidate_policies ?? []),
        enforced: false,
      }),
    );
  }
}

function policyRequestOf(request: EvaluateRequest | null | undefined): PolicyRequest {
  if (!request) throw invalidArgument('request is required');
  const principal = principalOfMessage(request.principal);
  const action = request.action ?? '';
  if (action === '') throw invalidArgument('action is required');
  if (!isAction(action)) throw invalidArgument('action must be a scope-shaped action such as jobs.read');
  return { principal, action, resourceTenant: request.resource_tenant || undefined };
}

function candidatesOf(inputs: NonNullable<DryRunRequest['candidate_policies']>): Policy[] {
  if (inputs.length > MAX_CANDIDATE_POLICIES) {
    throw invalidArgument(`at most ${MAX_CANDIDATE_POLICIES} candidate policies`);
  }
  return inputs.map((input) => {
    const parsed = parsePolicy(input);
    if ('problem' in parsed) throw invalidArgument(parsed.problem);
    return parsed;
  });
}

function toResponse(decision: Decision): EvaluateResponse {
  return {
    decision: decision.effect,
    decided_by: decision.decidedBy,
    reason: decision.reason,
    decision_id: decision.decisionId,
    enforced: decision.enforced,
  };
}
