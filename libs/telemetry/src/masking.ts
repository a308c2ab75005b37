/**
 * What a log line must never carry, found by shape: JWTs (every access and ID token), the
 * platform's prefixed opaque values (`plat_rt_…`, `plat_ac_…`, …), webhook secrets, the
 * credentials of an `Authorization` header, and the value of any secret-named parameter or JSON
 * member (client secrets are unprefixed random strings, so their name is what gives them away).
 */
const SECRET_SHAPES: ReadonlyArray<[RegExp, string]> = [
  [/\b(Bearer|Basic|DPoP)\s+[\w\-.~+/]+=*/gi, '$1 [masked]'],
  [/\beyJ[\w-]*\.[\w-]+\.[\w-]*/g, '[masked jwt]'],
  [/\b(plat_[a-z]{2}_|whsec_)[\w+/=-]+/g, '$1[masked]'],
  [
    /\b((?:client_)?secret|password|(?:access|refresh|id)_token|code_verifier|assertion|api_key|token)(["']?\s*[:=]\s*["']?)[^\s"'&,}]+/gi,
    '$1$2[masked]',
  ],
];

/** `text` with every secret-shaped part replaced by `[masked]`; the rest left readable. */
export function maskSecrets(text: string): string {
  let masked = text;
  for (const [shape, replacement] of SECRET_SHAPES) masked = masked.replace(shape, replacement);
  return masked;
}
