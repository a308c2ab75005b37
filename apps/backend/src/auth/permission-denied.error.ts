import { BearerError } from '@platform/domain';

/**
 * The sidecar refused the action (Authorize answered PERMISSION_DENIED): 403
 * `insufficient_scope`, and the problem+json body names the decision (`decision_id`) and the
 * policies that made it (`decided_by`) so an operator can find it in the sidecar's log.
 */
export class PermissionDeniedError extends BearerError {
  constructor(
    readonly action: string,
    readonly decisionId: string,
    readonly decidedBy: string[],
  ) {
    super('insufficient_scope', `The token does not allow ${action} on this resource`, action);
  }
}
