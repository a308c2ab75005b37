// Original file: proto/platform/tenant/v1/tenant.proto


export interface ValidateIsolationRequest {
  'token'?: (string);
  'resource_tenant'?: (string);
}

export interface ValidateIsolationRequest__Output {
  'token': (string);
  'resource_tenant': (string);
}
