// Original file: proto/platform/secrets/v1/secrets.proto


export interface ResolveSecretResponse {
  'tenant'?: (string);
  'name'?: (string);
  /**
   * The version answered.
   */
  'version'?: (number);
  /**
   * The value, UTF-8.
   */
  'value'?: (string);
  /**
   * When this version was written, RFC 3339.
   */
  'created_at'?: (string);
}

export interface ResolveSecretResponse__Output {
  'tenant': (string);
  'name': (string);
  /**
   * The version answered.
   */
  'version': (number);
  /**
   * The value, UTF-8.
   */
  'value': (string);
  /**
   * When this version was written, RFC 3339.
   */
  'created_at': (string);
}
