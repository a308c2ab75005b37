import { hash, randomBytes } from 'node:crypto';

/**
 * Digests of the secrets a process remembers having verified, so it keeps no secret: SHA-256
 * over a random per-process prefix and the parts, NUL-separated. Not an HMAC, which costs three
 * times as much on the token and introspection paths: a digest never leaves the process nor
 * comes in from outside, so length extension has nothing to forge, and the prefix keeps a memory
 * dump from testing guessed secrets. Compare digests with `timingSafeEqual`.
 */
export class SecretDigests {
  private readonly prefix = randomBytes(32).toString('base64');

  of(...parts: string[]): Buffer {
    return hash('sha256', `${this.prefix}\0${parts.join('\0')}`, 'buffer');
  }
}
