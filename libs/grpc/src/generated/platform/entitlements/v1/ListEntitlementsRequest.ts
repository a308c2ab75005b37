// Original file: proto/platform/entitlements/v1/entitlements.proto


export interface ListEntitlementsRequest {
  /**
   * The caller's access token.
   */
  'token'?: (string);
  /**
   * Whose entitlements, as in CheckEntitlementRequest.
   */
  'tenant'?: (string);
}

export interface ListEntitlementsRequest__Output {
  /**
   * The caller's access token.
   */
  'token': (string);
  /**
   * Whose entitlements, as in CheckEntitlementRequest.
   */
  'tenant': (string);
}
