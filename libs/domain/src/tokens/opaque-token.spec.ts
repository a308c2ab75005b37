import { generateOpaqueToken, hashOpaqueToken } from './opaque-token';

describe(generateOpaqueToken.name, () => {
  it('gives 256 random bits in base64url and the hash that is stored instead', () => {
    const { value, hash } = generateOpaqueToken();
    expect(value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(hash).toBe(hashOpaqueToken(value));
    expect(hash).not.toBe(value);
  });

  it('never repeats a value', () => {
    expect(generateOpaqueToken().value).not.toBe(generateOpaqueToken().value);
  });
});
