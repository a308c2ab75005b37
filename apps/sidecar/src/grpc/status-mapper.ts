import { Metadata, status, type StatusObject } from '@grpc/grpc-js';
import { DECIDED_BY_METADATA, DECISION_ID_METADATA, retryInfoMetadata } from '@platform/grpc';
import { AuthorizationError, type AuthorizationErrorCode } from '../authorization/authorization.error';
import { SidecarError, type SidecarErrorCode } from '../errors';

export type GrpcFailure = Pick<StatusObject, 'code' | 'details'> & { metadata?: Metadata };

/**
 * The one place a sidecar error becomes a gRPC status. Anything unknown is INTERNAL, without
 * detail. A policy refusal also carries its decision id and deciding policies as trailing
 * metadata (`x-decision-id`, `x-decided-by`); a rate limit or quota refusal a google.rpc.RetryInfo.
 */
export function toGrpcStatus(error: unknown): GrpcFailure {
  if (error instanceof SidecarError) {
    const failure: GrpcFailure = { code: statusOf(error.code), details: error.message };
    if (error.retryAfterSeconds !== undefined) {
      failure.metadata = retryInfoMetadata(error.message, error.retryAfterSeconds);
    }
    return failure;
  }
  if (error instanceof AuthorizationError) {
    const failure: GrpcFailure = { code: authorizationStatusOf(error.code), details: error.message };
    if (error.decision !== undefined) {
      const metadata = new Metadata();
      metadata.set(DECISION_ID_METADATA, error.decision.decisionId);
      if (error.decision.decidedBy.length > 0) {
        metadata.set(DECIDED_BY_METADATA, error.decision.decidedBy.join(','));
      }
      failure.metadata = metadata;
    }
    return failure;
  }
  return { code: status.INTERNAL, details: 'internal error' };
}

function statusOf(code: SidecarErrorCode): status {
  switch (code) {
    case 'token_missing':
      return status.INVALID_ARGUMENT;
    case 'token_malformed':
    case 'token_expired':
    case 'token_not_yet_valid':
    case 'token_revoked':
    case 'signature_invalid':
    case 'algorithm_not_allowed':
    case 'unknown_key':
    case 'claim_invalid':
    case 'internal_token_invalid':
    case 'dpop_invalid':
      return status.UNAUTHENTICATED;
    case 'control_plane_unavailable':
    case 'not_ready':
    case 'counter_unavailable':
      return status.UNAVAILABLE;
    case 'control_plane_rejected':
      return status.INTERNAL;
    case 'rate_limited':
    case 'quota_exhausted':
      return status.RESOURCE_EXHAUSTED;
    default: {
      const unmapped: never = code;
      throw new Error(`unmapped sidecar error code ${String(unmapped)}`);
    }
  }
}

function authorizationStatusOf(code: AuthorizationErrorCode): status {
  switch (code) {
    case 'invalid_argument':
      return status.INVALID_ARGUMENT;
    case 'permission_denied':
      return status.PERMISSION_DENIED;
    case 'not_found':
      return status.NOT_FOUND;
    case 'failed_precondition':
      return status.FAILED_PRECONDITION;
    default: {
      const unmapped: never = code;
      throw new Error(`unmapped authorization error code ${String(unmapped)}`);
    }
  }
}
