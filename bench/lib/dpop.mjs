import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto';

/**
 * A DPoP client key for the loads (RFC 9449): proofs are signed synchronously with node:crypto,
 * as autocannon's `setupRequest` needs, each with a new `jti` (an ES256 signature is ~40 µs of
 * the harness's CPU per request).
 */
export function dpopClientKey() {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const { kty, crv, x, y } = publicKey.export({ format: 'jwk' });
  const header = Buffer.from(
    JSON.stringify({ typ: 'dpop+jwt', alg: 'ES256', jwk: { kty, crv, x, y } }),
  ).toString('base64url');
  return {
    /** A fresh proof for one request; `token` adds its `ath`. */
    proof(method, url, token) {
      const claims = {
        jti: randomBytes(12).toString('base64url'),
        htm: method,
        htu: url,
        iat: Math.floor(Date.now() / 1000),
        ...(token !== undefined && { ath: createHash('sha256').update(token).digest('base64url') }),
      };
      const input = `${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
      const signature = sign('sha256', Buffer.from(input), { key: privateKey, dsaEncoding: 'ieee-p1363' });
      return `${input}.${signature.toString('base64url')}`;
    },
  };
}

/**
 * Proofs for one method, URL and token, signed ahead of a measured slice (`fill`, called by
 * ctx.compare's `prepare` outside the measured time), so that the load measures the server's
 * check of a proof, not the harness signing it on the same cores; `next` signs afresh once the
 * pool runs dry. Every proof is used once (a new jti each) and within seconds of its iat.
 */
export function proofPool(key, method, url, token) {
  let pool = [];
  return {
    fill(count) {
      pool = Array.from({ length: count }, () => key.proof(method, url, token));
    },
    next() {
      return pool.pop() ?? key.proof(method, url, token);
    },
  };
}
