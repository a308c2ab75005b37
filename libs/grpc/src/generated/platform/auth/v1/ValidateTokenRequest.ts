// Original file: proto/platform/auth/v1/auth.proto


export interface ValidateTokenRequest {
  'token'?: (string);
  /**
   * The resource (RFC 8707) the caller serves, as registered (its app's `resource_uri`): the
   * token's `aud` must be exactly this. Empty: the token's `aud` must be the issuer, so a token
   * restricted to a resource is refused where no audience is named (the platform's own API).
   */
  'audience'?: (string);
}

export interface ValidateTokenRequest__Output {
  'token': (string);
  /**
   * The resource (RFC 8707) the caller serves, as registered (its app's `resource_uri`): the
   * token's `aud` must be exactly this. Empty: the token's `aud` must be the issuer, so a token
   * restricted to a resource is refused where no audience is named (the platform's own API).
   */
  'audience': (string);
}
