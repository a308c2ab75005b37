import { createPrivateKey, sign, type JsonWebKey, type KeyObject } from 'node:crypto';

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
 * Everything that verifies our tokens still does so with jose.
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

function base64url(text: string): string {
  return Buffer.from(text).toString('base64url');
}
