// Original file: proto/platform/auth/v1/auth.proto


export interface ValidateTokenRequest {
  'token'?: (string);
  /**
   * The resource (RFC 8707) the caller serves, as registered (its app's `resource_uri`): the
   * token's `aud` must be exactly this. Empty: the token's `aud` must be the issuer, so a token
   * restricted to a resource is refused where no audience is named (the platform's own API).
   */
  'audience'?: (string);
  /**
   * RFC 9449 (DPoP): the `DPoP` proof header the request carried with `Authorization: DPoP
   * <token>`, verbatim; '' when the token was presented as Bearer. A token bound to a key
   * (`cnf.jkt`) is refused without a proof; a proof with an unbound token is refused too.
   * Checked: typ dpop+jwt, an asymmetric alg, a public jwk whose thumbprint is the token's
   * `cnf.jkt`, the signature, `htm` = `http_method`, `htu` = `http_url`, `iat` within the
   * window, `ath` = the token's SHA-256, `jti` not seen by this sidecar within the window.
   * Refused: UNAUTHENTICATED, the message starting `invalid_dpop_proof:` for a proof's fault.
   */
  'dpop_proof'?: (string);
  /**
   * The method of the request the token came with (`GET`, `POST`...): the proof's `htm`.
   */
  'http_method'?: (string);
  /**
   * The URL the client sent that request to (scheme, host, path; query ignored): the proof's `htu`.
   */
  'http_url'?: (string);
}

export interface ValidateTokenRequest__Output {
  'token': (string);
  /**
   * The resource (RFC 8707) the caller serves, as registered (its app's `resource_uri`): the
   * token's `aud` must be exactly this. Empty: the token's `aud` must be the issuer, so a token
   * restricted to a resource is refused where no audience is named (the platform's own API).
   */
  'audience': (string);
  /**
   * RFC 9449 (DPoP): the `DPoP` proof header the request carried with `Authorization: DPoP
   * <token>`, verbatim; '' when the token was presented as Bearer. A token bound to a key
   * (`cnf.jkt`) is refused without a proof; a proof with an unbound token is refused too.
   * Checked: typ dpop+jwt, an asymmetric alg, a public jwk whose thumbprint is the token's
   * `cnf.jkt`, the signature, `htm` = `http_method`, `htu` = `http_url`, `iat` within the
   * window, `ath` = the token's SHA-256, `jti` not seen by this sidecar within the window.
   * Refused: UNAUTHENTICATED, the message starting `invalid_dpop_proof:` for a proof's fault.
   */
  'dpop_proof': (string);
  /**
   * The method of the request the token came with (`GET`, `POST`...): the proof's `htm`.
   */
  'http_method': (string);
  /**
   * The URL the client sent that request to (scheme, host, path; query ignored): the proof's `htu`.
   */
  'http_url': (string);
}
