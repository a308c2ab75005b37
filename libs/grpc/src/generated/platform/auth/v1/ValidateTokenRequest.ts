// Original file: proto/platform/auth/v1/auth.proto


export interface ValidateTokenRequest {
  'token'?: (string);
}

export interface ValidateTokenRequest__Output {
  'token': (string);
}
