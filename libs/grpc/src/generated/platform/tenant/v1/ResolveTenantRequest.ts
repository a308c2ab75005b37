// Original file: proto/platform/tenant/v1/tenant.proto


export interface ResolveTenantRequest {
  'token'?: (string);
}

export interface ResolveTenantRequest__Output {
  'token': (string);
}
