import { join } from 'node:path';
import Database from 'better-sqlite3';
import { importJWK, SignJWT, type JWK } from 'jose';
import type { TestPlatform } from './platform';

/**
 * Signs a token with the platform's own current private key, read from its SQLite file.
 * Lets a test hold a genuinely expired token without waiting an hour.
 */
export async function signWithPlatformKey(
  platform: TestPlatform,
  claims: Record<string, unknown>,
): Promise<string> {
  const db = new Database(join(platform.dataDir, 'platform.sqlite'), { readonly: true });
  try {
    const row = db
      .prepare('SELECT kid, private_jwk FROM signing_keys ORDER BY created_at DESC LIMIT 1')
      .get() as {
      kid: string;
      private_jwk: string;
    };
    const key = await importJWK(JSON.parse(row.private_jwk) as JWK, 'RS256');
    return await new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid: row.kid })
      .sign(key);
  } finally {
    db.close();
  }
}

/** An unsecured JWT (`alg: none`) carrying the given claims. */
export function unsecuredJwt(claims: Record<string, unknown>): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'none', typ: 'at+jwt' })}.${part(claims)}.`;
}

/** The same token with one claim changed and the original signature kept. */
export function tamper(token: string, change: Record<string, unknown>): string {
  const [header, payload, signature] = token.split('.');
  const claims = { ...JSON.parse(Buffer.from(payload, 'base64url').toString()), ...change };
  return `${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${signature}`;
}
