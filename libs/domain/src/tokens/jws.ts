import { constants, createPrivateKey, sign, verify, type JsonWebKey, type KeyObject } from 'node:crypto';

export interface Rs256Header {
  alg: 'RS256';
  typ: string;
  kid: string;
}

/** The private RSA key of a stored JWK; anything else (or under 2048 bits, as jose) throws. */
export function rs256PrivateKey(jwk: JsonWebKey): KeyObject {
  const key = createPrivateKey({ key: jwk, format: 'jwk' });
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
  if (key.asymmetricKeyType !== 'rsa' || bits < 2048) {
    throw new TypeError('an RS256 signing key must be an RSA key of at least 2048 bits');
  }
  return key;
}

/**
 * The RS256 JWS compact serialization (RFC 7515 section 7.1) of `payload`. jose signs through
 * WebCrypto, whose job plumbing costs 50-100 µs of CPU per signature more than node:crypto's
 * own sign job (docs/performance.md); this runs that job, in the thread pool, and nothing else.
 * Verification: verifyJwsSignature below, for the tokens jose would accept too (access-token-check.ts).
 */
export function signRs256(header: Rs256Header, payload: object, key: KeyObject): Promise<string> {
  const input = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(payload))}`;
  return new Promise((resolve, reject) => {
    sign('sha256', Buffer.from(input), key, (error, signature) => {
      if (error) reject(error);
      else resolve(`${input}.${signature.toString('base64url')}`);
    });
  });
}

/** The JWS algorithms `verifyJwsSignature` knows, as node:crypto's verify options. */
const VERIFY_OPTIONS = {
  RS256: (key: KeyObject) => key,
  PS256: (key: KeyObject) => ({
    key,
    padding: constants.RSA_PKCS1_PSS_PADDING,
    saltLength: constants.RSA_PSS_SALTLEN_DIGEST,
  }),
  ES256: (key: KeyObject) => ({ key, dsaEncoding: 'ieee-p1363' as const }),
} as const;

/**
 * Whether `signature` (base64url) is `key`'s `alg` signature of `signingInput` (the first two
 * parts of a compact JWS), checked synchronously with node:crypto: 20-30 µs for RS256, where
 * jose's WebCrypto verification costs several times that in job plumbing. False for an
 * algorithm outside RS256/PS256/ES256 and for a key of the wrong type.
 */
export function verifyJwsSignature(
  alg: string,
  signingInput: string,
  signature: string,
  key: KeyObject,
): boolean {
  const options = VERIFY_OPTIONS[alg as keyof typeof VERIFY_OPTIONS];
  if (options === undefined) return false;
  try {
    return verify('sha256', Buffer.from(signingInput), options(key), Buffer.from(signature, 'base64url'));
  } catch {
    return false;
  }
}

/** A JSON object from a base64url part of a compact JWS, or undefined for anything else. */
export function decodeJsonPart(part: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function base64url(text: string): string {
  return Buffer.from(text).toString('base64url');
}
