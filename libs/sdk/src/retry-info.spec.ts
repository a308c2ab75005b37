import { Metadata } from '@grpc/grpc-js';
import { retryDelayOf } from './retry-info';

/** What the sidecar sends (libs/grpc's retryInfoMetadata): a Status whose only detail is a RetryInfo of 3600 s. */
const SIDECAR_QUOTA_REFUSAL =
  'CAgSJnF1b3RhIGV4cG9ydHMgb2YgdGVuYW50IGFjbWUgZXhoYXVzdGVkGjEKKHR5cGUuZ29vZ2xlYXBpcy5jb20vZ29vZ2xlLnJwYy5SZXRyeUluZm8SBQoDCJAc';
/** An ErrorInfo detail first, then a RetryInfo of 1.5 s (encoded with protobufjs from proto/google/rpc). */
const TWO_DETAILS =
  'CAgSCXNsb3cgZG93bhozCih0eXBlLmdvb2dsZWFwaXMuY29tL2dvb2dsZS5ycGMuRXJyb3JJbmZvEgcKBVFVVEFaGjYKKHR5cGUuZ29vZ2xlYXBpcy5jb20vZ29vZ2xlLnJwYy5SZXRyeUluZm8SCgoICAEQgMq17gE=';
/** An ErrorInfo detail only. */
const NO_RETRY_INFO =
  'CAgSCG5vIGRlbGF5GjMKKHR5cGUuZ29vZ2xlYXBpcy5jb20vZ29vZ2xlLnJwYy5FcnJvckluZm8SBwoFUVVUQVo=';

const trailers = (base64?: string) => {
  const metadata = new Metadata();
  if (base64 !== undefined) metadata.set('grpc-status-details-bin', Buffer.from(base64, 'base64'));
  return metadata;
};

describe(retryDelayOf.name, () => {
  it("reads the sidecar's RetryInfo delay", () => {
    expect(retryDelayOf(trailers(SIDECAR_QUOTA_REFUSAL))).toBe(3600);
  });

  it('finds the RetryInfo among other details, nanoseconds included', () => {
    expect(retryDelayOf(trailers(TWO_DETAILS))).toBe(1.5);
  });

  it('answers undefined without a RetryInfo, without the trailer, and for bytes that are not a Status', () => {
    expect(retryDelayOf(trailers(NO_RETRY_INFO))).toBeUndefined();
    expect(retryDelayOf(trailers())).toBeUndefined();
    expect(retryDelayOf(undefined)).toBeUndefined();
    expect(retryDelayOf(trailers(Buffer.from([0x1a, 0x7f, 0x01]).toString('base64')))).toBeUndefined();
    expect(retryDelayOf(trailers(Buffer.from([0x0f]).toString('base64')))).toBeUndefined();
  });
});
