// Original file: proto/platform/auth/v1/auth.proto


export interface AuthorizeRequest {
  'token'?: (string);
  'action'?: (string);
  'resource_tenant'?: (string);
  /**
   * The token's expected `aud`, as ValidateTokenRequest.audience ('' = the issuer).
   */
  'audience'?: (string);
  /**
   * DPoP, as ValidateTokenRequest's fields of the same names.
   */
  'dpop_proof'?: (string);
  'http_method'?: (string);
  'http_url'?: (string);
}

export interface AuthorizeRequest__Output {
  'token': (string);
  'action': (string);
  'resource_tenant': (string);
  /**
   * The token's expected `aud`, as ValidateTokenRequest.audience ('' = the issuer).
   */
  'audience': (string);
  /**
   * DPoP, as ValidateTokenRequest's fields of the same names.
   */
  'dpop_proof': (string);
  'http_method': (string);
  'http_url': (string);
}
