/** The longest resource URI an app may be or name (a column, a claim, a header: kept short). */
export const RESOURCE_URI_MAX_LENGTH = 512;
/** The most audiences one app may exchange tokens for. */
export const EXCHANGE_AUDIENCES_MAX = 20;

/** The characters a URI is written with (RFC 3986 section 2): no space, no backslash. */
const URI_CHARACTERS = /^[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]+$/;
/** `https://` and a host as written, not left for a parser to find further on. */
const HTTPS_WITH_HOST = /^https:\/\/[^/?#]/i;
/** `urn:<NID>:<NSS>` (RFC 8141 section 2). */
const URN = /^urn:[a-z0-9][a-z0-9-]{0,30}[a-z0-9]:.+$/i;

/**
 * Why a string cannot be a resource URI (an app's audience, RFC 8707 section 2: an absolute URI
 * without a fragment), or null when it can: an `https` URL with a host and no userinfo, or a URN.
 * Matched exactly wherever it is used, as a token's `aud` is.
 */
export function resourceUriProblem(uri: string): string | null {
  if (uri.length === 0 || uri.length > RESOURCE_URI_MAX_LENGTH) {
    return `must be 1 to ${RESOURCE_URI_MAX_LENGTH} characters`;
  }
  if (!URI_CHARACTERS.test(uri)) return 'has a character a URI is not written with (RFC 3986)';
  if (uri.includes('#')) return 'has a fragment (RFC 8707 section 2)';
  if (/^urn:/i.test(uri)) return URN.test(uri) ? null : 'is not a URN (urn:<namespace>:<name>)';
  if (!HTTPS_WITH_HOST.test(uri)) return 'must be an https URL with a host, or a urn: name';
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'is not an absolute URI';
  }
  if (url.username !== '' || url.password !== '') return 'has userinfo (user:password@)';
  return null;
}
