// Original file: proto/platform/auth/v1/auth.proto


export interface KeysRemoved {
  'kids'?: (string)[];
}

export interface KeysRemoved__Output {
  'kids': (string)[];
}
