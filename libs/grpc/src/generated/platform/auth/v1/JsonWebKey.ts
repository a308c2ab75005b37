// Original file: proto/platform/auth/v1/auth.proto


export interface JsonWebKey {
  'kty'?: (string);
  'use'?: (string);
  'alg'?: (string);
  'kid'?: (string);
  'n'?: (string);
  'e'?: (string);
}

export interface JsonWebKey__Output {
  'kty': (string);
  'use': (string);
  'alg': (string);
  'kid': (string);
  'n': (string);
  'e': (string);
}
