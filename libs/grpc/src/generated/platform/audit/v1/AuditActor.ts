// Original file: proto/platform/audit/v1/audit.proto


export interface AuditActor {
  /**
   * user, app or platform.
   */
  'kind'?: (string);
  'id'?: (string);
}

export interface AuditActor__Output {
  /**
   * user, app or platform.
   */
  'kind': (string);
  'id': (string);
}
