// Original file: proto/platform/tenant/v1/tenant.proto


export interface ResolveTenantResponse {
  'tenant'?: (string);
  'platform_wide'?: (boolean);
  'roles'?: (string)[];
}

export interface ResolveTenantResponse__Output {
  'tenant': (string);
  'platform_wide': (boolean);
  'roles': (string)[];
}
