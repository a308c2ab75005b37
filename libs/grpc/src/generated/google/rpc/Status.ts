// Original file: proto/google/rpc/status.proto

import type { Any as _google_protobuf_Any, Any__Output as _google_protobuf_Any__Output } from '../../google/protobuf/Any';

/**
 * The logical error model of gRPC: a status code, a developer-facing message and details.
 */
export interface Status {
  /**
   * The status code, a value of google.rpc.Code (the gRPC status code).
   */
  'code'?: (number);
  /**
   * A developer-facing error message in English.
   */
  'message'?: (string);
  /**
   * Messages that carry the error details, such as google.rpc.RetryInfo.
   */
  'details'?: (_google_protobuf_Any)[];
}

/**
 * The logical error model of gRPC: a status code, a developer-facing message and details.
 */
export interface Status__Output {
  /**
   * The status code, a value of google.rpc.Code (the gRPC status code).
   */
  'code': (number);
  /**
   * A developer-facing error message in English.
   */
  'message': (string);
  /**
   * Messages that carry the error details, such as google.rpc.RetryInfo.
   */
  'details': (_google_protobuf_Any__Output)[];
}
