// Original file: proto/platform/audit/v1/audit.proto


export interface EmitAuditEventRequest {
  /**
   * The caller's access token.
   */
  'token'?: (string);
  /**
   * The tenant the record belongs to; empty: the caller's own (a user's, a bound app's), or a
   * platform-wide record for an app bound to no tenant.
   */
  'tenant'?: (string);
  /**
   * Dotted lower case, `resource.verb` (invoice.paid).
   */
  'action'?: (string);
  /**
   * What the action touched; empty for nothing in particular.
   */
  'target'?: (string);
  /**
   * success (default when empty), failure or denied.
   */
  'outcome'?: (string);
  /**
   * RFC 3339; empty for now.
   */
  'occurred_at'?: (string);
  /**
   * A JSON object of flat values (string, number, boolean, null), as the REST body's
   * `attributes`: it is hashed in RFC 8785 form, so it travels as JSON. Empty for none.
   */
  'attributes_json'?: (string);
}

export interface EmitAuditEventRequest__Output {
  /**
   * The caller's access token.
   */
  'token': (string);
  /**
   * The tenant the record belongs to; empty: the caller's own (a user's, a bound app's), or a
   * platform-wide record for an app bound to no tenant.
   */
  'tenant': (string);
  /**
   * Dotted lower case, `resource.verb` (invoice.paid).
   */
  'action': (string);
  /**
   * What the action touched; empty for nothing in particular.
   */
  'target': (string);
  /**
   * success (default when empty), failure or denied.
   */
  'outcome': (string);
  /**
   * RFC 3339; empty for now.
   */
  'occurred_at': (string);
  /**
   * A JSON object of flat values (string, number, boolean, null), as the REST body's
   * `attributes`: it is hashed in RFC 8785 form, so it travels as JSON. Empty for none.
   */
  'attributes_json': (string);
}
