import type { KeyObject } from 'node:crypto';
import { MAX_ACCESS_TOKEN_LENGTH, REQUIRED_ACCESS_TOKEN_CLAIMS } from './access-token';
import { decodeJsonPart, verifyJwsSignature } from './jws';
import { isCompactJws } from './opaque-token';

export interface AccessTokenCheck {
  issuer: string;
  nowSeconds: number;
  /** The key that verifies `alg` under `kid`; undefined when none does. */
  keyOf(kid: string, alg: string): KeyObject | undefined;
  /** Only a token for the platform's own API (`aud` the issuer) passes. */
  forIssuerOnly: boolean;
  /** Revocation (RFC 7009) takes expired tokens too. */
  allowExpired?: boolean;
}

/**
 * The payload of an access token that is valid beyond doubt, checked synchronously with
 * node:crypto: what jose's `jwtVerify` checks with our options (RS256/PS256/ES256 by the key,
 * `typ` at+jwt, no `crit` or `b64`, the issuer, the required claims, `exp` and `nbf`), in 20-30 µs
 * where jose's WebCrypto verification costs several times that. It only ever accepts: anything it
 * does not judge exactly as jose would (an unusual header, a claim of the wrong type, a bad
 * signature) is undefined, and the caller asks jose or the sidecar, whose answer stays the one
 * source (docs/performance.md).
 */
export function checkedAccessTokenPayload(
  token: string,
  check: AccessTokenCheck,
): Record<string, unknown> | undefined {
  if (token.length > MAX_ACCESS_TOKEN_LENGTH || !isCompactJws(token)) return undefined;
  const [header, payload, signature] = token.split('.');
  const protectedHeader = decodeJsonPart(header);
  if (protectedHeader === undefined) return undefined;
  const { alg, typ, kid, crit, b64 } = protectedHeader;
  if (typ !== 'at+jwt' || crit !== undefined || b64 !== undefined || typeof kid !== 'string')
    return undefined;
  const key = typeof alg === 'string' ? check.keyOf(kid, alg) : undefined;
  if (key === undefined || !verifyJwsSignature(alg as string, `${header}.${payload}`, signature, key)) {
    return undefined;
  }
  const claims = decodeJsonPart(payload);
  return claims !== undefined && claimsHold(claims, check) ? claims : undefined;
}

function claimsHold(claims: Record<string, unknown>, check: AccessTokenCheck): boolean {
  if (REQUIRED_ACCESS_TOKEN_CLAIMS.some((claim) => claims[claim] === undefined)) return false;
  const { iss, aud, exp, iat, nbf } = claims;
  if (iss !== check.issuer || typeof iat !== 'number' || typeof exp !== 'number') return false;
  if (check.forIssuerOnly && !(aud === check.issuer || (Array.isArray(aud) && aud.includes(check.issuer)))) {
    return false;
  }
  // Same rules as jose's: expired once exp <= now, not yet valid while nbf > now.
  if (!check.allowExpired && exp <= check.nowSeconds) return false;
  return nbf === undefined || (!check.allowExpired && typeof nbf === 'number' && nbf <= check.nowSeconds);
}
