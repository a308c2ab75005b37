import { OAuthError } from './errors';

/**
 * Parses an application/x-www-form-urlencoded OAuth request. Parameters may not repeat
 * (RFC 6749 section 3.2) and empty values count as absent (section 3.1).
 */
export function parseOAuthForm(body: string): Record<string, string> {
  const params: Record<string, string> = {};
  const seen = new Set<string>();
  for (const [key, value] of new URLSearchParams(body)) {
    if (seen.has(key)) throw new OAuthError('invalid_request', `parameter ${key} is repeated`);
    seen.add(key);
    if (value !== '') params[key] = value;
  }
  return params;
}
