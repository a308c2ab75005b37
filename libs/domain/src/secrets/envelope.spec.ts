import { randomBytes } from 'node:crypto';
import { Envelope, kekIdOf } from './envelope';
import { secretAssociatedData } from './secret';

const AAD = secretAssociatedData('acme', 'db', 1);

describe('Envelope', () => {
  const kek = randomBytes(32);

  it('opens what it sealed, and the stored form holds neither the value nor the data key in the clear', () => {
    const envelope = new Envelope(kek);
    const sealed = envelope.seal(Buffer.from('hunter2'), AAD);

    expect(envelope.open(sealed, AAD).toString()).toBe('hunter2');
    expect(sealed.kekId).toBe(kekIdOf(kek));
    expect(JSON.stringify(sealed)).not.toContain(Buffer.from('hunter2').toString('base64url'));
    expect(envelope.seal(Buffer.from('hunter2'), AAD).ciphertext).not.toBe(sealed.ciphertext);
  });

  it('refuses a ciphertext moved to another secret or version (the associated data)', () => {
    const envelope = new Envelope(kek);
    const sealed = envelope.seal(Buffer.from('hunter2'), AAD);

    expect(() => envelope.open(sealed, secretAssociatedData('acme', 'db', 2))).toThrow(
      expect.objectContaining({ code: 'unavailable', message: expect.stringContaining('does not verify') }),
    );
  });

  it.each([
    ['a flipped ciphertext byte', (raw: Buffer) => raw.fill(raw[20] ^ 1, 20, 21)],
    ['a truncated tag', (raw: Buffer) => raw.subarray(0, raw.length - 4)],
    ['nothing but a nonce', (raw: Buffer) => raw.subarray(0, 12)],
  ])('refuses %s', (_, tamper) => {
    const envelope = new Envelope(kek);
    const sealed = envelope.seal(Buffer.from('a value long enough to flip'), AAD);
    const raw = tamper(Buffer.from(sealed.ciphertext, 'base64url'));

    expect(() => envelope.open({ ...sealed, ciphertext: raw.toString('base64url') }, AAD)).toThrow(
      expect.objectContaining({ code: 'unavailable' }),
    );
  });

  it('refuses a damaged wrapped key, and a key-encryption key it does not hold, saying which', () => {
    const sealed = new Envelope(kek).seal(Buffer.from('v'), AAD);
    const damaged = Buffer.from(sealed.wrappedKey, 'base64url');
    damaged[3] ^= 1;

    expect(() =>
      new Envelope(kek).open({ ...sealed, wrappedKey: damaged.toString('base64url') }, AAD),
    ).toThrow(/does not unwrap/);
    expect(() => new Envelope(randomBytes(32)).open(sealed, AAD)).toThrow(sealed.kekId);
  });

  it('rewraps the data key under the current KEK, leaving the ciphertext as it was', () => {
    const next = randomBytes(32);
    const sealed = new Envelope(kek).seal(Buffer.from('v'), AAD);
    const rotated = new Envelope(next, [kek]);

    const moved = rotated.rewrap(sealed);
    expect(moved).toMatchObject({ ciphertext: sealed.ciphertext, kekId: kekIdOf(next) });
    expect(new Envelope(next).open(moved!, AAD).toString()).toBe('v');
    expect(rotated.rewrap(moved!)).toBeNull();
  });

  it('takes 32-byte keys only', () => {
    expect(() => new Envelope(randomBytes(16))).toThrow('32 bytes');
  });
});
