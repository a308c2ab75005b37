// Original file: proto/platform/secrets/v1/secrets.proto


export interface ResolveSecretRequest {
  /**
   * The caller's access token.
   */
  'token'?: (string);
  /**
   * `secret://<tenant>/<name>` (the current version) or `secret://<tenant>/<name>#<version>`,
   * as configuration points at a secret. Or leave it empty and give `name` (and `tenant`,
   * `version`).
   */
  'reference'?: (string);
  /**
   * Whose secret; the caller's own tenant when empty (a user's, a bound app's). An app bound to
   * no tenant names it.
   */
  'tenant'?: (string);
  /**
   * The secret's name: 1 to 128 of A-Z a-z 0-9 . _ -
   */
  'name'?: (string);
  /**
   * Which version; 0: the current one.
   */
  'version'?: (number);
}

export interface ResolveSecretRequest__Output {
  /**
   * The caller's access token.
   */
  'token': (string);
  /**
   * `secret://<tenant>/<name>` (the current version) or `secret://<tenant>/<name>#<version>`,
   * as configuration points at a secret. Or leave it empty and give `name` (and `tenant`,
   * `version`).
   */
  'reference': (string);
  /**
   * Whose secret; the caller's own tenant when empty (a user's, a bound app's). An app bound to
   * no tenant names it.
   */
  'tenant': (string);
  /**
   * The secret's name: 1 to 128 of A-Z a-z 0-9 . _ -
   */
  'name': (string);
  /**
   * Which version; 0: the current one.
   */
  'version': (number);
}
