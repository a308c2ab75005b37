import { randomBytes } from 'node:crypto';
import { deriveKey } from './keys';
import { SealedBox } from './sealed-box';

describe(SealedBox.name, () => {
  const key = deriveKey('internal-token-of-at-least-32-characters', 'login-transaction');
  let now: number;
  const box = () => new SealedBox(key, 'login-transaction', () => now);

  beforeEach(() => {
    now = 1_700_000_000_000;
  });

  it('opens what it sealed, and the sealed text reveals nothing of the value', () => {
    const sealed = box().seal({ state: 'visible-state' }, 600);
    expect(sealed).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(Buffer.from(sealed, 'base64url').toString('latin1')).not.toContain('visible-state');
    expect(box().open(sealed)).toEqual({ state: 'visible-state' });
  });

  it('lets another replica with the same internal token open it', () => {
    const sealed = box().seal({ a: 1 }, 600);
    const replica = new SealedBox(
      deriveKey('internal-token-of-at-least-32-characters', 'login-transaction'),
      'login-transaction',
      () => now,
    );
    expect(replica.open(sealed)).toEqual({ a: 1 });
  });

  it('refuses a value whose ciphertext was altered by one bit', () => {
    const bytes = Buffer.from(box().seal({ returnTo: '/' }, 600), 'base64url');
    bytes[20] ^= 0x01;
    expect(box().open(bytes.toString('base64url'))).toBeUndefined();
  });

  it('refuses a value whose authentication tag was altered', () => {
    const bytes = Buffer.from(box().seal({ returnTo: '/' }, 600), 'base64url');
    bytes[bytes.length - 1] ^= 0x80;
    expect(box().open(bytes.toString('base64url'))).toBeUndefined();
  });

  it('refuses a value sealed under another key', () => {
    const other = new SealedBox(randomBytes(32), 'login-transaction', () => now);
    expect(box().open(other.seal({ a: 1 }, 600))).toBeUndefined();
  });

  it('refuses a value sealed for another purpose, even under the same key', () => {
    const other = new SealedBox(key, 'something-else', () => now);
    expect(box().open(other.seal({ a: 1 }, 600))).toBeUndefined();
  });

  it('refuses an expired value', () => {
    const sealed = box().seal({ a: 1 }, 600);
    now += 600_000;
    expect(box().open(sealed)).toBeUndefined();
  });

  it.each([undefined, '', 'not-base64!', 'AQ', Buffer.alloc(40).toString('base64url')])(
    'refuses garbage (%p)',
    (value) => {
      expect(box().open(value)).toBeUndefined();
    },
  );

  it('derives different keys for different purposes', () => {
    const token = 'internal-token-of-at-least-32-characters';
    expect(deriveKey(token, 'csrf').equals(deriveKey(token, 'login-transaction'))).toBe(false);
  });
});
