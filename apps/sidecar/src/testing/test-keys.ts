import { randomBytes } from 'node:crypto';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK, type JWTPayload } from 'jose';
import { TEST_ISSUER } from './test-config';

export type TestAlgorithm = 'RS256' | 'ES256' | 'PS256';

/** A real signing key pair, as the control plane would hold it, with its published JWK. */
export interface TestKey {
  kid: string;
  alg: TestAlgorithm;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  publicJwk: JWK;
}

export async function createTestKey(
  alg: TestAlgorithm = 'RS256',
  kid = `${alg.toLowerCase()}-${randomBytes(4).toString('hex')}`,
): Promise<TestKey> {
  const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true });
  const publicJwk: JWK = { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' };
  return { kid, alg, privateKey, publicKey, publicJwk };
}

export interface AccessTokenOptions {
  claims?: JWTPayload;
  /** Header overrides (`typ`, `kid`, ...). */
  header?: Record<string, unknown>;
  /** Seconds; defaults to now. */
  iat?: number;
  expiresIn?: number;
}

/** A service access token in the RFC 9068 profile of docs/internal-api.md, signed by `key`. */
export async function signAccessToken(key: TestKey, options: AccessTokenOptions = {}): Promise<string> {
  const iat = options.iat ?? Math.floor(Date.now() / 1000);
  const payload: JWTPayload = {
    iss: TEST_ISSUER,
    aud: TEST_ISSUER,
    sub: 'reports-service',
    client_id: 'reports-service',
    scope: 'jobs.read jobs.write',
    jti: randomBytes(16).toString('base64url'),
    iat,
    exp: iat + (options.expiresIn ?? 3600),
    ...options.claims,
  };
  return new SignJWT(payload)
    .setProtectedHeader({ alg: key.alg, typ: 'at+jwt', kid: key.kid, ...options.header })
    .sign(key.privateKey);
}

/** A client_credentials token of an app, bound to `tenant` when given. */
export function signServiceToken(
  key: TestKey,
  clientId: string,
  scope: string,
  tenant?: string,
): Promise<string> {
  return signAccessToken(key, {
    claims: { sub: clientId, client_id: clientId, scope, ...(tenant && { tenant }) },
  });
}

/** A user's token, issued through a grant of the app `portal`. */
export function signUserToken(key: TestKey, roles: string[], tenant: string, scope: string): Promise<string> {
  return signAccessToken(key, {
    claims: {
      sub: `${tenant}-${roles.join('-')}`,
      client_id: 'portal',
      scope,
      tenant,
      roles,
      grant_id: 'g-1',
    },
  });
}
