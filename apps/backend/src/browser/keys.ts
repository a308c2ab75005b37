import { hkdfSync } from 'node:crypto';

/** Fixed HKDF salt: keys derived here are only ever used by the backend's browser pages. */
const SALT = 'oauth-platform/backend/browser/v1';

export type KeyPurpose = 'login-transaction' | 'saml-transaction' | 'csrf';

/**
 * A 256-bit key for one purpose, derived from SESSION_SECRET with HKDF-SHA256 (RFC 5869). Every
 * backend replica shares SESSION_SECRET, so any of them can open a cookie another one sealed,
 * and keys for different purposes never coincide. Never INTERNAL_TOKEN: holding the token that
 * calls the control plane must not also forge a browser's cookies.
 */
export function deriveKey(sessionSecret: string, purpose: KeyPurpose): Buffer {
  return Buffer.from(hkdfSync('sha256', sessionSecret, SALT, purpose, 32));
}
