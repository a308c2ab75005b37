import { OAuthError } from './errors';

/** The parameters that name a token's target: one per request, so one audience per token (docs/tokens.md). */
const TARGET_PARAMETERS = new Set(['resource', 'audience']);

/**
 * Parses an application/x-www-form-urlencoded OAuth request. Parameters may not repeat
 * (RFC 6749 section 3.2) and empty values count as absent (section 3.1). A second target is
 * RFC 8707's `invalid_target`: the platform issues tokens for one resource.
 */
export function parseOAuthForm(body: string): Record<string, string> {
  const params: Record<string, string> = {};
  const seen = new Set<string>();
  let targeted = false;
  for (const [key, value] of new URLSearchParams(body)) {
    if (TARGET_PARAMETERS.has(key)) {
      if (targeted) throw new OAuthError('invalid_target', 'one resource or audience per token request');
      targeted = true;
    }
    if (seen.has(key)) throw new OAuthError('invalid_request', `parameter ${key} is repeated`);
    seen.add(key);
    if (value !== '') params[key] = value;
  }
  return params;
}
