// Original file: proto/platform/auth/v1/auth.proto


export interface RevokeTokenRequest {
  'token'?: (string);
}

export interface RevokeTokenRequest__Output {
  'token': (string);
}
