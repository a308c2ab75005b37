import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Seals a small JSON value into a string that is confidential and tamper-evident
 * (AES-256-GCM, random 96-bit IV, the purpose as additional data) and expires: what a browser
 * carries for us in a cookie without being able to read or alter it.
 * Layout, base64url: version (1 byte) | iv (12) | ciphertext | tag (16).
 */
export class SealedBox {
  constructor(
    private readonly key: Buffer,
    private readonly purpose: string,
    private readonly now: () => number = Date.now,
  ) {
    if (key.length !== 32) throw new Error('SealedBox needs a 256-bit key');
  }

  seal(value: unknown, ttlSeconds: number): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(this.purpose, 'utf8'));
    const exp = Math.floor(this.now() / 1000) + ttlSeconds;
    const plaintext = Buffer.from(JSON.stringify({ exp, value }), 'utf8');
    const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
    return Buffer.concat([Buffer.of(VERSION), iv, ciphertext, cipher.getAuthTag()]).toString('base64url');
  }

  /** The sealed value; undefined when it is malformed, altered, sealed for another purpose or expired. */
  open(sealed: string | undefined): unknown {
    if (sealed === undefined) return undefined;
    const bytes = Buffer.from(sealed, 'base64url');
    if (bytes.length < 1 + IV_BYTES + TAG_BYTES + 1 || bytes[0] !== VERSION) return undefined;
    const iv = bytes.subarray(1, 1 + IV_BYTES);
    const tag = bytes.subarray(bytes.length - TAG_BYTES);
    const ciphertext = bytes.subarray(1 + IV_BYTES, bytes.length - TAG_BYTES);
    let envelope: unknown;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, iv);
      decipher.setAAD(Buffer.from(this.purpose, 'utf8'));
      decipher.setAuthTag(tag);
      const plaintext = Buffer.concat([decipher.update(ciphertext), decipher.final()]);
      envelope = JSON.parse(plaintext.toString('utf8'));
    } catch {
      return undefined;
    }
    const { exp, value } = (envelope ?? {}) as { exp?: unknown; value?: unknown };
    if (typeof exp !== 'number' || exp <= Math.floor(this.now() / 1000)) return undefined;
    return value;
  }
}
