import type { Metadata } from '@grpc/grpc-js';

/** The trailer of gRPC's richer error model: a serialized google.rpc.Status. */
const STATUS_DETAILS = 'grpc-status-details-bin';
const RETRY_INFO = 'type.googleapis.com/google.rpc.RetryInfo';

/**
 * The delay, in seconds, of the google.rpc.RetryInfo a RESOURCE_EXHAUSTED answer carries in
 * `grpc-status-details-bin` (AIP-193), or undefined when it carries none. Read with the few lines
 * of protobuf wire format it takes (Status.details: Any; RetryInfo.retry_delay: Duration), so the
 * SDK needs no protobuf runtime of its own.
 */
export function retryDelayOf(metadata: Metadata | undefined): number | undefined {
  const [raw] = metadata?.get(STATUS_DETAILS) ?? [];
  if (!Buffer.isBuffer(raw)) return undefined;
  try {
    for (const detail of fieldsOf(raw, 3)) {
      const any = detail.bytes;
      if (any === undefined || fieldsOf(any, 1)[0]?.bytes?.toString('utf8') !== RETRY_INFO) continue;
      const retryInfo = fieldsOf(any, 2)[0]?.bytes;
      const duration = retryInfo && fieldsOf(retryInfo, 1)[0]?.bytes;
      if (duration === undefined) return 0;
      const seconds = fieldsOf(duration, 1)[0]?.varint ?? 0;
      const nanos = fieldsOf(duration, 2)[0]?.varint ?? 0;
      return seconds + nanos / 1e9;
    }
  } catch {
    // Not a Status: no delay to read.
  }
  return undefined;
}

interface Field {
  varint?: number;
  bytes?: Buffer;
}

/** The fields numbered `number` of one protobuf message, in order. */
function fieldsOf(message: Buffer, number: number): Field[] {
  const found: Field[] = [];
  let at = 0;
  const varint = (): number => {
    let value = 0;
    for (let shift = 1; ; shift *= 128) {
      if (at >= message.length) throw new Error('truncated');
      const byte = message[at++];
      value += (byte & 0x7f) * shift;
      if (byte < 0x80) return value;
    }
  };
  while (at < message.length) {
    const tag = varint();
    const field: Field = {};
    switch (tag % 8) {
      case 0:
        field.varint = varint();
        break;
      case 1:
        at += 8;
        break;
      case 2: {
        const length = varint();
        if (at + length > message.length) throw new Error('truncated');
        field.bytes = message.subarray(at, at + length);
        at += length;
        break;
      }
      case 5:
        at += 4;
        break;
      default:
        throw new Error(`wire type ${tag % 8}`);
    }
    if (Math.floor(tag / 8) === number) found.push(field);
  }
  return found;
}
