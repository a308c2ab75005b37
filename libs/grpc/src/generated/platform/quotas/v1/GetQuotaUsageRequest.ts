// Original file: proto/platform/quotas/v1/quotas.proto


export interface GetQuotaUsageRequest {
  /**
   * The caller's access token.
   */
  'token'?: (string);
  /**
   * Whose quota, as in ConsumeQuotaRequest.
   */
  'tenant'?: (string);
  /**
   * The meter.
   */
  'meter'?: (string);
}

export interface GetQuotaUsageRequest__Output {
  /**
   * The caller's access token.
   */
  'token': (string);
  /**
   * Whose quota, as in ConsumeQuotaRequest.
   */
  'tenant': (string);
  /**
   * The meter.
   */
  'meter': (string);
}
