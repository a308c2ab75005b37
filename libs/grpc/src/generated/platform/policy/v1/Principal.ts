// Original file: proto/platform/policy/v1/policy.proto


export interface Principal {
  /**
   * "user" (a forwarded user token) or "service" (an app acting as itself).
   */
  'kind'?: (string);
  'id'?: (string);
  'client_id'?: (string);
  /**
   * Users only.
   */
  'tenant'?: (string);
  'roles'?: (string)[];
  /**
   * The scopes of the token. A user is allowed an action only when these cover it AND a role
   * policy allows it; a service only needs these to cover it ("admin.*" covers every action).
   */
  'scopes'?: (string)[];
}

export interface Principal__Output {
  /**
   * "user" (a forwarded user token) or "service" (an app acting as itself).
   */
  'kind': (string);
  'id': (string);
  'client_id': (string);
  /**
   * Users only.
   */
  'tenant': (string);
  'roles': (string)[];
  /**
   * The scopes of the token. A user is allowed an action only when these cover it AND a role
   * policy allows it; a service only needs these to cover it ("admin.*" covers every action).
   */
  'scopes': (string)[];
}
