import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';

/**
 * A private_key_jwt client key for the loads (RFC 7523 section 2.2): assertions signed
 * synchronously with node:crypto, as autocannon's `setupRequest` needs, each with a new `jti`
 * (an ES256 signature is ~40 µs of the harness's CPU per request). `jwk` is what the app registers.
 */
export function clientAssertionKey(kid = 'bench-1') {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const { kty, crv, x, y } = publicKey.export({ format: 'jwk' });
  const header = Buffer.from(JSON.stringify({ alg: 'ES256', kid })).toString('base64url');
  return {
    jwk: { kty, crv, x, y, kid, alg: 'ES256', use: 'sig' },
    /**
     * A fresh assertion of `clientId` for the issuer `audience`, as oauth4webapi builds one
     * (`lifetime` seconds: up to the platform's 300 for one signed ahead of its use).
     */
    assertion(clientId, audience, lifetime = 60) {
      const now = Math.floor(Date.now() / 1000);
      const claims = {
        iss: clientId,
        sub: clientId,
        aud: audience,
        jti: randomBytes(12).toString('base64url'),
        iat: now,
        nbf: now,
        exp: now + lifetime,
      };
      const input = `${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
      const signature = sign('sha256', Buffer.from(input), { key: privateKey, dsaEncoding: 'ieee-p1363' });
      return `${input}.${signature.toString('base64url')}`;
    },
  };
}

/**
 * Assertions signed before the load, each used once, so the harness's signing (which a real
 * client pays on its own machine) does not take CPU from the platform on the shared cores; signed
 * live once the pool is used up. They live 290 s: the pool must be used within that.
 */
export function assertionPool(key, clientId, audience, size) {
  const pool = Array.from({ length: size }, () => key.assertion(clientId, audience, 290));
  let next = 0;
  return () => (next < pool.length ? pool[next++] : key.assertion(clientId, audience));
}
