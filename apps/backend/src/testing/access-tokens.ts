import { randomBytes } from 'node:crypto';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWTPayload } from 'jose';
import type { JsonWebKeyMessage } from '@platform/grpc';

export const ISSUER = 'http://127.0.0.1:3000';
export const NOW = Math.floor(Date.now() / 1000);

export interface Key {
  alg: 'RS256' | 'PS256' | 'ES256';
  kid: string;
  privateKey: CryptoKey;
  message: JsonWebKeyMessage;
}

/** A real key pair and its public key as the sidecar streams it. */
export async function keyPair(alg: Key['alg'], publishedAlg: string = alg): Promise<Key> {
  const kid = `${alg}-${randomBytes(4).toString('hex')}`;
  const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true });
  const jwk = await exportJWK(publicKey);
  const message = {
    kty: '',
    n: '',
    e: '',
    crv: '',
    x: '',
    y: '',
    ...jwk,
    kid,
    alg: publishedAlg,
    use: 'sig',
  };
  return { alg, kid, privateKey, message: message as JsonWebKeyMessage };
}

/** An access token of the RFC 9068 profile the control plane issues, with overrides. */
export function sign(
  key: Key,
  claims: JWTPayload = {},
  header: Record<string, unknown> = {},
): Promise<string> {
  return new SignJWT({
    iss: ISSUER,
    aud: ISSUER,
    sub: 'reports',
    client_id: 'reports',
    scope: 'jobs.read',
    jti: randomBytes(8).toString('hex'),
    iat: NOW - 10,
    exp: NOW + 600,
    ...claims,
  })
    .setProtectedHeader({ alg: key.alg, typ: 'at+jwt', kid: key.kid, ...header })
    .sign(key.privateKey);
}
