const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Why a redirect URI cannot be registered, or null when it can. HTTPS, plain HTTP only on
 * loopback (RFC 8252 section 7.3), or a private-use scheme in reverse-domain form for native
 * apps (section 7.1); never a fragment (RFC 6749 section 3.1.2). Matching is exact later.
 */
export function redirectUriProblem(uri: string): string | null {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return `${uri} is not an absolute URI`;
  }
  if (url.hash || uri.includes('#')) return `${uri} has a fragment`;
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:') return LOOPBACK_HOSTS.has(url.hostname) ? null : `${uri} must use https`;
  const scheme = url.protocol.slice(0, -1);
  if (scheme.includes('.') && !['javascript', 'data', 'file', 'vbscript'].includes(scheme)) return null;
  return `${uri} uses an unsupported scheme`;
}

/**
 * The registered redirect URI with response parameters added to its query (RFC 6749 section
 * 4.1.2), form-encoded. Whatever query the URI was registered with is kept byte for byte.
 */
export function redirectUriWithParameters(uri: string, params: Record<string, string | undefined>): string {
  const query = new URLSearchParams(
    Object.entries(params).filter((entry): entry is [string, string] => entry[1] !== undefined),
  ).toString();
  const separator = !uri.includes('?') ? '?' : /[?&]$/.test(uri) ? '' : '&';
  return `${uri}${separator}${query}`;
}

/**
 * An authorization response (RFC 6749 section 4.1.2 and 4.1.2.1) at the client's redirect URI,
 * always naming the issuer (RFC 9207), so a client that talks to several authorization servers
 * can tell which one answered (mix-up attacks, RFC 9700 section 4.4).
 */
export function authorizationResponseUri(
  redirectUri: string,
  issuer: string,
  params: Record<string, string | undefined>,
): string {
  return redirectUriWithParameters(redirectUri, { ...params, iss: issuer });
}
