import { status, type StatusObject } from '@grpc/grpc-js';
import { SidecarError, type SidecarErrorCode } from '../errors';

export type GrpcFailure = Pick<StatusObject, 'code' | 'details'>;

/** The one place a sidecar error becomes a gRPC status. Anything unknown is INTERNAL, without detail. */
export function toGrpcStatus(error: unknown): GrpcFailure {
  if (!(error instanceof SidecarError)) return { code: status.INTERNAL, details: 'internal error' };
  return { code: statusOf(error.code), details: error.message };
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
      return status.UNAUTHENTICATED;
    case 'control_plane_unavailable':
    case 'not_ready':
      return status.UNAVAILABLE;
    case 'control_plane_rejected':
      return status.INTERNAL;
    default: {
      const unmapped: never = code;
      throw new Error(`unmapped sidecar error code ${String(unmapped)}`);
    }
  }
}
