import { createHmac } from 'node:crypto';
import { secretsEqual } from '@platform/domain';

/**
 * Synchronizer tokens for the cookie-authenticated forms: the token is an HMAC of the browser
 * session value, so it needs no storage, differs for every session, and cannot be computed by
 * a page that does not know the session cookie (which is HttpOnly).
 */
export class CsrfTokens {
  constructor(private readonly key: Buffer) {}

  tokenFor(session: string): string {
    return createHmac('sha256', this.key).update(`csrf\u0000${session}`, 'utf8').digest('base64url');
  }

  /** Constant-time check of a presented token against the session's; false when either is missing. */
  matches(session: string | undefined, presented: unknown): boolean {
    if (session === undefined || session === '' || typeof presented !== 'string' || presented === '') {
      return false;
    }
    return secretsEqual(presented, this.tokenFor(session));
  }
}
