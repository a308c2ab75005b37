// Original file: proto/platform/policy/v1/policy.proto


export interface Policy {
  'id'?: (string);
  'description'?: (string);
  /**
   * "allow" or "deny".
   */
  'effect'?: (string);
  /**
   * Roles it applies to; "*" for every user.
   */
  'roles'?: (string)[];
  /**
   * Action patterns ("jobs.*", "secrets.read", "*").
   */
  'actions'?: (string)[];
  /**
   * "own", "other" or "any".
   */
  'tenants'?: (string);
}

export interface Policy__Output {
  'id': (string);
  'description': (string);
  /**
   * "allow" or "deny".
   */
  'effect': (string);
  /**
   * Roles it applies to; "*" for every user.
   */
  'roles': (string)[];
  /**
   * Action patterns ("jobs.*", "secrets.read", "*").
   */
  'actions': (string)[];
  /**
   * "own", "other" or "any".
   */
  'tenants': (string);
}
