import { createHmac, randomBytes } from 'node:crypto';

const MAX_ENTRIES = 10_000;

/**
 * The client credentials that won a token (a 200) at this backend lately. Their requests share
 * batches (TokenBatcher); credentials not seen to succeed may cost the control plane an argon2
 * run of about a second, so they go alone and hold no batch. Only an HMAC of the credentials
 * under a key of this process is kept, never the secret. Bounded: the least recently used goes
 * first.
 */
export class KnownCredentials {
  private readonly key = randomBytes(32);
  private readonly known = new Set<string>();

  constructor(private readonly maxEntries = MAX_ENTRIES) {}

  /**
   * The HMAC of the credentials a token request presents: its Authorization header and its
   * form's client_id and client_secret, decoded as the control plane reads them. Undefined when
   * it presents no secret (a public client): the control plane runs no argon2 for it.
   */
  of(form: string, authorization: string | undefined): string | undefined {
    const params = new URLSearchParams(form);
    const secrets = params.getAll('client_secret');
    if (authorization === undefined && secrets.length === 0) return undefined;
    return createHmac('sha256', this.key)
      .update(JSON.stringify([authorization ?? null, params.getAll('client_id'), secrets]))
      .digest('base64');
  }

  has(credentials: string): boolean {
    if (!this.known.delete(credentials)) return false;
    this.known.add(credentials); // now the most recently used
    return true;
  }

  /** Remembers credentials that won a token; forgets those refused (a secret rotated away). */
  settle(credentials: string, status: number): void {
    if (status === 401) {
      this.known.delete(credentials);
    } else if (status === 200) {
      this.known.delete(credentials);
      this.known.add(credentials);
      if (this.known.size > this.maxEntries) this.known.delete(this.known.values().next().value!);
    }
  }
}
