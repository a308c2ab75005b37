import { hkdfSync } from 'node:crypto';

/** Fixed HKDF salt: keys derived here are only ever used by the backend's browser pages. */
const SALT = 'oauth-platform/backend/browser/v1';

export type KeyPurpose = 'login-transaction' | 'csrf';

/**
 * A 256-bit key for one purpose, derived from INTERNAL_TOKEN with HKDF-SHA256 (RFC 5869). Every
 * backend replica shares INTERNAL_TOKEN, so any of them can open a cookie another one sealed,
 * and keys for different purposes never coincide.
 */
export function deriveKey(internalToken: string, purpose: KeyPurpose): Buffer {
  return Buffer.from(hkdfSync('sha256', internalToken, SALT, purpose, 32));
}
