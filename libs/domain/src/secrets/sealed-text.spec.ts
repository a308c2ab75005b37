import { randomBytes } from 'node:crypto';
import { Envelope } from './envelope';
import { isSealedText, openText, rewrapText, sealText } from './sealed-text';

describe('sealed text', () => {
  const old = new Envelope(randomBytes(32));
  const current = new Envelope(randomBytes(32), [randomBytes(32)]);

  it('opens what it sealed, under the associated data it was sealed with', () => {
    const stored = sealText(old, 'webhook-secret\0wh_1', 'whsec_abc');

    expect(isSealedText(stored)).toBe(true);
    expect(openText(old, 'webhook-secret\0wh_1', stored)).toEqual({
      text: 'whsec_abc',
      kekId: old.currentKekId,
    });
    expect(() => openText(old, 'webhook-secret\0wh_2', stored)).toThrow(
      expect.objectContaining({ code: 'unavailable' }),
    );
  });

  it('reads a value stored in the clear as clear: a secret, or a JSON private key without `sealed`', () => {
    for (const clear of ['whsec_abc', '{"kty":"RSA","n":"x","e":"AQAB"}']) {
      expect(isSealedText(clear)).toBe(false);
      expect(openText(current, 'signing-key\0k1', clear)).toBeNull();
      expect(rewrapText(current, clear)).toBeNull();
    }
  });

  it.each([
    ['not JSON', '{"sealed": {"ciphertext": "abc"'],
    ['a sealed value without its wrapped key', '{"sealed":{"ciphertext":"abc","kekId":"kek-1"}}'],
    ['a sealed value that is null', '{"sealed":null}'],
  ])('answers unavailable, never a bare exception, for a damaged value: %s', (_, stored) => {
    const unavailable = expect.objectContaining({
      code: 'unavailable',
      message: expect.stringContaining('damaged'),
    });
    expect(() => isSealedText(stored)).toThrow(unavailable);
    expect(() => openText(current, 'signing-key\0k1', stored)).toThrow(unavailable);
    expect(() => rewrapText(current, stored)).toThrow(unavailable);
  });
});
