import { createHash, randomBytes } from 'node:crypto';

/**
 * Opaque bearer values (authorization codes, refresh tokens): 256 random bits, of which only
 * the SHA-256 is ever stored, so a database leak yields nothing usable.
 */
export function generateOpaqueToken(): { value: string; hash: string } {
  const value = randomBytes(32).toString('base64url');
  return { value, hash: hashOpaqueToken(value) };
}

export function hashOpaqueToken(value: string): string {
  return createHash('sha256').update(value).digest('base64url');
}
