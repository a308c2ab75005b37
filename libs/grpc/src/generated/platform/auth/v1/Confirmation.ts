// Original file: proto/platform/auth/v1/auth.proto


/**
 * RFC 7800 / RFC 9449 section 6: the key a token is bound to.
 */
export interface Confirmation {
  /**
   * RFC 7638 SHA-256 thumbprint (base64url) of the DPoP key.
   */
  'jkt'?: (string);
}

/**
 * RFC 7800 / RFC 9449 section 6: the key a token is bound to.
 */
export interface Confirmation__Output {
  /**
   * RFC 7638 SHA-256 thumbprint (base64url) of the DPoP key.
   */
  'jkt': (string);
}
