import { Metadata, status } from '@grpc/grpc-js';
import { readRetryInfo, retryInfoMetadata, STATUS_DETAILS_METADATA } from './retry-info';

describe('RetryInfo in grpc-status-details-bin', () => {
  it('encodes google.rpc.Status{code 8, message, details [Any RetryInfo]} as the protobuf wire format', () => {
    const [raw] = retryInfoMetadata('slow down', 30).get(STATUS_DETAILS_METADATA);
    const retryInfo = Buffer.from([0x0a, 0x02, 0x08, 30]); // retry_delay { seconds: 30 }
    const typeUrl = Buffer.from('type.googleapis.com/google.rpc.RetryInfo');
    const any = Buffer.concat([
      Buffer.from([0x0a, typeUrl.length]),
      typeUrl,
      Buffer.from([0x12, 4]),
      retryInfo,
    ]);
    const expected = Buffer.concat([
      Buffer.from([0x08, status.RESOURCE_EXHAUSTED, 0x12, 9]),
      Buffer.from('slow down'),
      Buffer.from([0x1a, any.length]),
      any,
    ]);
    expect(raw).toEqual(expected);
  });

  it('reads back the status and the delay', () => {
    expect(readRetryInfo(retryInfoMetadata('too many failed attempts', 900))).toEqual({
      status: { code: status.RESOURCE_EXHAUSTED, message: 'too many failed attempts' },
      retryAfterSeconds: 900,
    });
  });

  it('answers undefined for trailers without details', () => {
    expect(readRetryInfo(new Metadata())).toBeUndefined();
    expect(readRetryInfo(undefined)).toBeUndefined();
  });
});
