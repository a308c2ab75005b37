import { status } from '@grpc/grpc-js';
import { readRetryInfo } from '@platform/grpc';
import { AuthorizationError, type AuthorizationErrorCode } from '../authorization/authorization.error';
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
    ['rate_limited', status.RESOURCE_EXHAUSTED],
    ['quota_exhausted', status.RESOURCE_EXHAUSTED],
    ['counter_unavailable', status.UNAVAILABLE],
  ])('maps %s to gRPC status %i with its short reason', (code, expected) => {
    expect(toGrpcStatus(new SidecarError(code, 'short reason'))).toEqual({
      code: expected,
      details: 'short reason',
    });
  });

  it.each<[AuthorizationErrorCode, status]>([
    ['invalid_argument', status.INVALID_ARGUMENT],
    ['permission_denied', status.PERMISSION_DENIED],
  ])('maps the authorization error %s to gRPC status %i with its reason', (code, expected) => {
    expect(toGrpcStatus(new AuthorizationError(code, 'why'))).toEqual({ code: expected, details: 'why' });
  });

  it('sends a rate limit refusal’s delay as google.rpc.RetryInfo in grpc-status-details-bin', () => {
    const failure = toGrpcStatus(new SidecarError('rate_limited', 'too many', 42));
    expect(failure.code).toBe(status.RESOURCE_EXHAUSTED);
    expect(readRetryInfo(failure.metadata)).toEqual({
      status: { code: status.RESOURCE_EXHAUSTED, message: 'too many' },
      retryAfterSeconds: 42,
    });
  });

  it('sends a quota refusal’s wait until the window ends as google.rpc.RetryInfo', () => {
    const failure = toGrpcStatus(new SidecarError('quota_exhausted', 'quota exports exhausted', 3600));
    expect(failure.code).toBe(status.RESOURCE_EXHAUSTED);
    expect(readRetryInfo(failure.metadata)?.retryAfterSeconds).toBe(3600);
  });

  it('sends the decision id and the deciding policies of a refusal as trailing metadata', () => {
    const failure = toGrpcStatus(
      new AuthorizationError('permission_denied', 'denied', {
        decisionId: 'd-1',
        decidedBy: ['token-scope', 'tenant-isolation'],
      }),
    );

    expect(failure.code).toBe(status.PERMISSION_DENIED);
    expect(failure.metadata?.get('x-decision-id')).toEqual(['d-1']);
    expect(failure.metadata?.get('x-decided-by')).toEqual(['token-scope,tenant-isolation']);
  });

  it('sends no x-decided-by for a default deny', () => {
    const failure = toGrpcStatus(
      new AuthorizationError('permission_denied', 'denied', { decisionId: 'd-2', decidedBy: [] }),
    );

    expect(failure.metadata?.get('x-decision-id')).toEqual(['d-2']);
    expect(failure.metadata?.get('x-decided-by')).toEqual([]);
  });

  it('answers INTERNAL without detail for an unexpected error', () => {
    expect(toGrpcStatus(new TypeError('secret detail'))).toEqual({
      code: status.INTERNAL,
      details: 'internal error',
    });
  });
});
