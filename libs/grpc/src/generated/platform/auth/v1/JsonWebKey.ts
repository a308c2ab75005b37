// Original file: proto/platform/auth/v1/auth.proto


/**
 * A public key as RFC 7517 names its members; empty strings for the members its type has not.
 */
export interface JsonWebKey {
  'kty'?: (string);
  'use'?: (string);
  'alg'?: (string);
  'kid'?: (string);
  /**
   * RSA: modulus and exponent (base64url).
   */
  'n'?: (string);
  'e'?: (string);
  /**
   * EC: curve ("P-256") and coordinates (base64url).
   */
  'crv'?: (string);
  'x'?: (string);
  'y'?: (string);
}

/**
 * A public key as RFC 7517 names its members; empty strings for the members its type has not.
 */
export interface JsonWebKey__Output {
  'kty': (string);
  'use': (string);
  'alg': (string);
  'kid': (string);
  /**
   * RSA: modulus and exponent (base64url).
   */
  'n': (string);
  'e': (string);
  /**
   * EC: curve ("P-256") and coordinates (base64url).
   */
  'crv': (string);
  'x': (string);
  'y': (string);
}
