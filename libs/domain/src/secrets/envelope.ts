import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { DomainError } from '../errors';

/** AES-256-GCM: a 12-byte nonce and the full 16-byte tag (a shorter tag would be accepted otherwise). */
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;
/** RFC 3394 key wrap with its default initial value, for the data keys. */
const WRAP = 'id-aes256-wrap';
const WRAP_IV = Buffer.alloc(8, 0xa6);

/** A value as stored: its ciphertext, its data key wrapped, and which key wrapped it. */
export interface SealedValue {
  /** base64url of nonce | ciphertext | tag. */
  ciphertext: string;
  /** base64url of the data key wrapped by the key-encryption key. */
  wrappedKey: string;
  kekId: string;
}

/** The id a key-encryption key is known by: a digest of it, so nothing has to name it. */
export function kekIdOf(key: Buffer): string {
  return `kek-${createHash('sha256').update(key).digest('hex').slice(0, 16)}`;
}

/**
 * Envelope encryption (docs/secrets.md): every value under its own random data key
 * (AES-256-GCM, the associated data binding it to where it belongs), the data key wrapped by the
 * current key-encryption key. Earlier KEKs still unwrap what they wrapped until `rewrap` has
 * moved every data key to the current one; values are never re-encrypted.
 */
export class Envelope {
  private readonly keks = new Map<string, Buffer>();
  readonly currentKekId: string;

  constructor(current: Buffer, previous: readonly Buffer[] = []) {
    for (const key of [current, ...previous]) {
      if (key.length !== KEY_BYTES) throw new Error('a key-encryption key must be 32 bytes');
      this.keks.set(kekIdOf(key), key);
    }
    this.currentKekId = kekIdOf(current);
  }

  seal(plaintext: Buffer, associatedData: string): SealedValue {
    const dataKey = randomBytes(KEY_BYTES);
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', dataKey, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(associatedData, 'utf8'));
    const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
    const ciphertext = Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url');
    const wrappedKey = this.wrap(dataKey, this.currentKekId);
    dataKey.fill(0);
    return { ciphertext, wrappedKey, kekId: this.currentKekId };
  }

  /** The plaintext; `unavailable` when the KEK is not held or anything fails to verify. */
  open(sealed: SealedValue, associatedData: string): Buffer {
    const dataKey = this.unwrap(sealed);
    try {
      const raw = Buffer.from(sealed.ciphertext, 'base64url');
      if (raw.length < IV_BYTES + TAG_BYTES) throw new Error('short');
      const decipher = createDecipheriv('aes-256-gcm', dataKey, raw.subarray(0, IV_BYTES), {
        authTagLength: TAG_BYTES,
      });
      decipher.setAAD(Buffer.from(associatedData, 'utf8'));
      decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
      return Buffer.concat([
        decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)),
        decipher.final(),
      ]);
    } catch {
      throw tampered(associatedData);
    } finally {
      dataKey.fill(0);
    }
  }

  /** The same value with its data key wrapped by the current KEK; null when it already is. */
  rewrap(sealed: SealedValue): SealedValue | null {
    if (sealed.kekId === this.currentKekId) return null;
    const dataKey = this.unwrap(sealed);
    const wrappedKey = this.wrap(dataKey, this.currentKekId);
    dataKey.fill(0);
    return { ciphertext: sealed.ciphertext, wrappedKey, kekId: this.currentKekId };
  }

  private wrap(dataKey: Buffer, kekId: string): string {
    const cipher = createCipheriv(WRAP, this.keks.get(kekId) as Buffer, WRAP_IV);
    return Buffer.concat([cipher.update(dataKey), cipher.final()]).toString('base64url');
  }

  private unwrap(sealed: SealedValue): Buffer {
    const kek = this.keks.get(sealed.kekId);
    if (!kek) {
      throw new DomainError(
        'unavailable',
        `a value is sealed under ${sealed.kekId}, which this control plane does not hold (SECRETS_KEK_PREVIOUS)`,
      );
    }
    try {
      const decipher = createDecipheriv(WRAP, kek, WRAP_IV);
      return Buffer.concat([decipher.update(Buffer.from(sealed.wrappedKey, 'base64url')), decipher.final()]);
    } catch {
      throw new DomainError(
        'unavailable',
        `a data key does not unwrap under ${sealed.kekId}: the stored key is damaged`,
      );
    }
  }
}

function tampered(associatedData: string): DomainError {
  const where = associatedData.split('\0').join(' ');
  return new DomainError(
    'unavailable',
    `the stored value of ${where} does not verify: it was altered or moved`,
  );
}
