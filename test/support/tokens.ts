import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Envelope, openPrivateJwk } from '@platform/domain';
import Database from 'better-sqlite3';
import { importJWK, SignJWT, type JWK } from 'jose';
import type { TestPlatform } from './platform';

/** The platform's key-encryption key: its SECRETS_KEK, else the development one in its data directory. */
function envelopeOf(platform: TestPlatform): Envelope {
  const kek = platform.env.SECRETS_KEK ?? readFileSync(join(platform.dataDir, 'secrets-kek'), 'utf8');
  return new Envelope(Buffer.from(kek.trim(), 'base64url'));
}

/**
 * Signs a token with the platform's own current private key, read from its SQLite file and
 * opened with its key-encryption key.
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
    const { jwk } = openPrivateJwk(envelopeOf(platform), row.kid, row.private_jwk);
    const key = await importJWK(jwk as JWK, 'RS256');
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
