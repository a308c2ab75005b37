import { newTokenId } from './token-id';

const issuedAt = (id: string) => Buffer.from(id, 'base64url').readUIntBE(0, 6);

describe(newTokenId.name, () => {
  it('is 22 base64url characters that start with the issue time in milliseconds', () => {
    const at = Date.UTC(2026, 10, 26, 15, 30, 0, 123);
    const id = newTokenId(at);
    expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(issuedAt(id)).toBe(at);
  });

  it('shares its first characters with the ids of the same moment and differs in the rest', () => {
    const at = Date.UTC(2026, 10, 26);
    const ids = Array.from({ length: 10_000 }, () => newTokenId(at));
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(ids.map((id) => id.slice(0, 8))).size).toBe(1);
    // 80 random bits: the characters after the time take many values at every position.
    for (let position = 8; position < 21; position++) {
      expect(new Set(ids.map((id) => id[position])).size).toBe(64);
    }
  });
});
