import { status } from '@grpc/grpc-js';
import { SidecarError, type SidecarErrorCode } from '../errors';
import { toGrpcStatus } from './status-mapper';

describe(toGrpcStatus.name, () => {
  it.each<[SidecarErrorCode, status]>([
    ['token_missing', status.INVALID_ARGUMENT],
    ['token_malformed', status.UNAUTHENTICATED],
    ['token_expired', status.UNAUTHENTICATED],
    ['token_not_yet_valid', status.UNAUTHENTICATED],
    ['token_revoked', status.UNAUTHENTICATED],
    ['signature_invalid', status.UNAUTHENTICATED],
    ['algorithm_not_allowed', status.UNAUTHENTICATED],
    ['unknown_key', status.UNAUTHENTICATED],
    ['claim_invalid', status.UNAUTHENTICATED],
    ['internal_token_invalid', status.UNAUTHENTICATED],
    ['control_plane_unavailable', status.UNAVAILABLE],
    ['not_ready', status.UNAVAILABLE],
    ['control_plane_rejected', status.INTERNAL],
  ])('maps %s to gRPC status %i with its short reason', (code, expected) => {
    expect(toGrpcStatus(new SidecarError(code, 'short reason'))).toEqual({
      code: expected,
      details: 'short reason',
    });
  });

  it('answers INTERNAL without detail for an unexpected error', () => {
    expect(toGrpcStatus(new TypeError('secret detail'))).toEqual({
      code: status.INTERNAL,
      details: 'internal error',
    });
  });
});
