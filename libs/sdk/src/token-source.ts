/**
 * Where a `PlatformClient` gets the Bearer token for each request, and a fresh one when the
 * platform answers 401.
 */
export interface TokenSource {
  /** The access token to send now. */
  getToken(): Promise<string>;
  /**
   * The platform refused `rejected` with a 401. Returns the token to retry with (fetching or
   * refreshing at most once however many callers report the same rejected token), or
   * `undefined` when no other token can be had (a forwarded token with no refresh token).
   */
  renew(rejected: string): Promise<string | undefined>;
}
