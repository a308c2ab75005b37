/**
 * The shapes of credentials, found in any text: what the masking service detects as JWT,
 * BEARER_TOKEN, PLATFORM_SECRET and SECRET_PARAMETER, and what the platform's own logger masks in
 * every line (libs/telemetry). One home, so a log line and a masked document agree.
 */
export interface CredentialShape {
  entityType: 'JWT' | 'BEARER_TOKEN' | 'PLATFORM_SECRET' | 'SECRET_PARAMETER';
  /** Global; the group `secret` (when named) is the part to mask, else the whole match. */
  pattern: RegExp;
}

export const CREDENTIAL_SHAPES: readonly CredentialShape[] = [
  // Every access and ID token, and JWE (five parts).
  { entityType: 'JWT', pattern: /\beyJ[\w-]*\.[\w-]+\.[\w-]*(?:\.[\w-]+\.[\w-]+)?/g },
  // The credentials of an Authorization header.
  { entityType: 'BEARER_TOKEN', pattern: /\b(?:Bearer|Basic|DPoP)\s+(?<secret>[\w\-.~+/]+=*)/gi },
  // The platform's prefixed opaque values (`plat_rt_…`) and webhook secrets.
  { entityType: 'PLATFORM_SECRET', pattern: /\b(?:plat_[a-z]{2}_|whsec_)(?<secret>[\w+/=-]+)/g },
  // Client secrets are unprefixed random strings: their parameter or member name gives them away.
  {
    entityType: 'SECRET_PARAMETER',
    pattern:
      /\b(?:(?:client_)?secret|password|(?:access|refresh|id)_token|code_verifier|assertion|api_key|token)["']?\s*[:=]\s*["']?(?<secret>[^\s"'&,}]+)/gi,
  },
];

/** The text span of a match to mask: its `secret` group, else all of it. */
export function secretSpan(match: RegExpExecArray): { start: number; end: number } {
  const secret = match.groups?.secret;
  if (secret === undefined) return { start: match.index, end: match.index + match[0].length };
  const start = match.index + match[0].length - secret.length;
  return { start, end: start + secret.length };
}
