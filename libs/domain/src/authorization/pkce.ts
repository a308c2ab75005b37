import { createHash, timingSafeEqual } from 'node:crypto';

/** RFC 7636 section 4.1: 43 to 128 characters of the unreserved set. */
const CODE_VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;
/** base64url of a SHA-256 digest without padding: always 43 characters. */
const S256_CODE_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

export function isCodeVerifier(value: string): boolean {
  return CODE_VERIFIER.test(value);
}

export function isS256CodeChallenge(value: string): boolean {
  return S256_CODE_CHALLENGE.test(value);
}

/** RFC 7636 section 4.2: BASE64URL(SHA256(ASCII(code_verifier))). */
export function s256CodeChallenge(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

/** RFC 7636 section 4.6, in constant time. A malformed verifier never matches. */
export function verifyS256CodeVerifier(verifier: string, challenge: string): boolean {
  if (!isCodeVerifier(verifier) || !isS256CodeChallenge(challenge)) return false;
  return timingSafeEqual(Buffer.from(s256CodeChallenge(verifier)), Buffer.from(challenge));
}
