import { join } from 'node:path';
import { Metadata, status } from '@grpc/grpc-js';
import { Root, type Type } from 'protobufjs';
import type { RetryInfo__Output } from './generated/google/rpc/RetryInfo';
import type { Status__Output } from './generated/google/rpc/Status';
import { PROTO_ROOT } from './proto-root';

/** The trailer of gRPC's richer error model: a serialized `google.rpc.Status`. */
export const STATUS_DETAILS_METADATA = 'grpc-status-details-bin';
const RETRY_INFO_TYPE_URL = 'type.googleapis.com/google.rpc.RetryInfo';

let types: { status: Type; retryInfo: Type } | undefined;

/** google.rpc.Status and RetryInfo from proto/google/rpc, loaded once (snake_case kept). */
function richStatusTypes(): { status: Type; retryInfo: Type } {
  if (types) return types;
  const root = new Root();
  // Well-known google/protobuf imports are protobufjs' own; the rest come from proto/.
  root.resolvePath = (_origin, target) =>
    target.startsWith('google/protobuf/') ? target : join(PROTO_ROOT, target);
  root.loadSync(['google/rpc/status.proto', 'google/rpc/error_details.proto'], { keepCase: true });
  types = {
    status: root.lookupType('google.rpc.Status'),
    retryInfo: root.lookupType('google.rpc.RetryInfo'),
  };
  return types;
}

/**
 * Trailing metadata of a RESOURCE_EXHAUSTED answer: `grpc-status-details-bin` holding a
 * google.rpc.Status with a RetryInfo detail (AIP-193), which gRPC clients and Envoy read as
 * "retry after `retryAfterSeconds`".
 */
export function retryInfoMetadata(message: string, retryAfterSeconds: number): Metadata {
  const { status: statusType, retryInfo } = richStatusTypes();
  const detail = retryInfo
    .encode(retryInfo.fromObject({ retry_delay: { seconds: retryAfterSeconds } }))
    .finish();
  const body = statusType
    .encode(
      statusType.fromObject({
        code: status.RESOURCE_EXHAUSTED,
        message,
        details: [{ type_url: RETRY_INFO_TYPE_URL, value: detail }],
      }),
    )
    .finish();
  const metadata = new Metadata();
  metadata.set(STATUS_DETAILS_METADATA, Buffer.from(body));
  return metadata;
}

/** The google.rpc.Status of an error's trailers and its RetryInfo delay in seconds, if any. */
export function readRetryInfo(
  metadata: Metadata | undefined,
): { status: Pick<Status__Output, 'code' | 'message'>; retryAfterSeconds: number | undefined } | undefined {
  const [raw] = metadata?.get(STATUS_DETAILS_METADATA) ?? [];
  if (!Buffer.isBuffer(raw)) return undefined;
  const { status: statusType, retryInfo } = richStatusTypes();
  const decoded = statusType.toObject(statusType.decode(raw), {
    longs: Number,
    defaults: true,
  }) as Status__Output;
  const detail = decoded.details?.find((any) => any.type_url === RETRY_INFO_TYPE_URL);
  const delay = detail?.value
    ? (
        retryInfo.toObject(retryInfo.decode(detail.value), {
          longs: Number,
          defaults: true,
        }) as RetryInfo__Output
      ).retry_delay
    : undefined;
  return {
    status: { code: decoded.code, message: decoded.message },
    retryAfterSeconds: delay ? Number(delay.seconds) + delay.nanos / 1e9 : undefined,
  };
}
