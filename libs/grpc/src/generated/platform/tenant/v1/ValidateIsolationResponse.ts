// Original file: proto/platform/tenant/v1/tenant.proto


export interface ValidateIsolationResponse {
  'allowed'?: (boolean);
  'reason'?: (string);
}

export interface ValidateIsolationResponse__Output {
  'allowed': (boolean);
  'reason': (string);
}
