// Original file: proto/platform/masking/v1/masking.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { MaskRequest as _platform_masking_v1_MaskRequest, MaskRequest__Output as _platform_masking_v1_MaskRequest__Output } from '../../../platform/masking/v1/MaskRequest';
import type { MaskResponse as _platform_masking_v1_MaskResponse, MaskResponse__Output as _platform_masking_v1_MaskResponse__Output } from '../../../platform/masking/v1/MaskResponse';
import type { MaskStringRequest as _platform_masking_v1_MaskStringRequest, MaskStringRequest__Output as _platform_masking_v1_MaskStringRequest__Output } from '../../../platform/masking/v1/MaskStringRequest';
import type { MaskStringResponse as _platform_masking_v1_MaskStringResponse, MaskStringResponse__Output as _platform_masking_v1_MaskStringResponse__Output } from '../../../platform/masking/v1/MaskStringResponse';

export interface MaskingServiceClient extends grpc.Client {
  /**
   * Masks a JSON document: the values at `field_paths` whole, and with `detect_in_values` every
   * entity found in the other string values. Needs `masking.apply`; not JSON: INVALID_ARGUMENT.
   */
  Mask(argument: _platform_masking_v1_MaskRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_masking_v1_MaskResponse__Output>): grpc.ClientUnaryCall;
  Mask(argument: _platform_masking_v1_MaskRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_platform_masking_v1_MaskResponse__Output>): grpc.ClientUnaryCall;
  Mask(argument: _platform_masking_v1_MaskRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_masking_v1_MaskResponse__Output>): grpc.ClientUnaryCall;
  Mask(argument: _platform_masking_v1_MaskRequest, callback: grpc.requestCallback<_platform_masking_v1_MaskResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Masks a JSON document: the values at `field_paths` whole, and with `detect_in_values` every
   * entity found in the other string values. Needs `masking.apply`; not JSON: INVALID_ARGUMENT.
   */
  mask(argument: _platform_masking_v1_MaskRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_masking_v1_MaskResponse__Output>): grpc.ClientUnaryCall;
  mask(argument: _platform_masking_v1_MaskRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_platform_masking_v1_MaskResponse__Output>): grpc.ClientUnaryCall;
  mask(argument: _platform_masking_v1_MaskRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_masking_v1_MaskResponse__Output>): grpc.ClientUnaryCall;
  mask(argument: _platform_masking_v1_MaskRequest, callback: grpc.requestCallback<_platform_masking_v1_MaskResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Masks every entity found in free text. Needs `masking.apply` (PERMISSION_DENIED otherwise).
   * Empty token: INVALID_ARGUMENT; invalid token: UNAUTHENTICATED. Bad options (an unknown entity type, operator or region, a custom pattern
   * that could backtrack catastrophically): INVALID_ARGUMENT with the reason. A message over the
   * sidecar's 1 MiB receive limit: RESOURCE_EXHAUSTED.
   */
  MaskString(argument: _platform_masking_v1_MaskStringRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_masking_v1_MaskStringResponse__Output>): grpc.ClientUnaryCall;
  MaskString(argument: _platform_masking_v1_MaskStringRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_platform_masking_v1_MaskStringResponse__Output>): grpc.ClientUnaryCall;
  MaskString(argument: _platform_masking_v1_MaskStringRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_masking_v1_MaskStringResponse__Output>): grpc.ClientUnaryCall;
  MaskString(argument: _platform_masking_v1_MaskStringRequest, callback: grpc.requestCallback<_platform_masking_v1_MaskStringResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Masks every entity found in free text. Needs `masking.apply` (PERMISSION_DENIED otherwise).
   * Empty token: INVALID_ARGUMENT; invalid token: UNAUTHENTICATED. Bad options (an unknown entity type, operator or region, a custom pattern
   * that could backtrack catastrophically): INVALID_ARGUMENT with the reason. A message over the
   * sidecar's 1 MiB receive limit: RESOURCE_EXHAUSTED.
   */
  maskString(argument: _platform_masking_v1_MaskStringRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_masking_v1_MaskStringResponse__Output>): grpc.ClientUnaryCall;
  maskString(argument: _platform_masking_v1_MaskStringRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_platform_masking_v1_MaskStringResponse__Output>): grpc.ClientUnaryCall;
  maskString(argument: _platform_masking_v1_MaskStringRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_platform_masking_v1_MaskStringResponse__Output>): grpc.ClientUnaryCall;
  maskString(argument: _platform_masking_v1_MaskStringRequest, callback: grpc.requestCallback<_platform_masking_v1_MaskStringResponse__Output>): grpc.ClientUnaryCall;
  
}

export interface MaskingServiceHandlers extends grpc.UntypedServiceImplementation {
  /**
   * Masks a JSON document: the values at `field_paths` whole, and with `detect_in_values` every
   * entity found in the other string values. Needs `masking.apply`; not JSON: INVALID_ARGUMENT.
   */
  Mask: grpc.handleUnaryCall<_platform_masking_v1_MaskRequest__Output, _platform_masking_v1_MaskResponse>;
  
  /**
   * Masks every entity found in free text. Needs `masking.apply` (PERMISSION_DENIED otherwise).
   * Empty token: INVALID_ARGUMENT; invalid token: UNAUTHENTICATED. Bad options (an unknown entity type, operator or region, a custom pattern
   * that could backtrack catastrophically): INVALID_ARGUMENT with the reason. A message over the
   * sidecar's 1 MiB receive limit: RESOURCE_EXHAUSTED.
   */
  MaskString: grpc.handleUnaryCall<_platform_masking_v1_MaskStringRequest__Output, _platform_masking_v1_MaskStringResponse>;
  
}

export interface MaskingServiceDefinition extends grpc.ServiceDefinition {
  Mask: MethodDefinition<_platform_masking_v1_MaskRequest, _platform_masking_v1_MaskResponse, _platform_masking_v1_MaskRequest__Output, _platform_masking_v1_MaskResponse__Output>
  MaskString: MethodDefinition<_platform_masking_v1_MaskStringRequest, _platform_masking_v1_MaskStringResponse, _platform_masking_v1_MaskStringRequest__Output, _platform_masking_v1_MaskStringResponse__Output>
}
