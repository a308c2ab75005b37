import {
  formatUserCode,
  generateUserCode,
  normalizeUserCode,
  USER_CODE_ALPHABET,
  userCodeHash,
} from './device-authorization';

describe('user codes', () => {
  it('are 8 letters of the RFC 8628 section 6.1 alphabet, drawn anew each time', () => {
    const codes = Array.from({ length: 200 }, generateUserCode);
    for (const code of codes) expect(code).toMatch(new RegExp(`^[${USER_CODE_ALPHABET}]{8}$`));
    expect(new Set(codes).size).toBe(codes.length);
    // Every letter turns up: the draw covers the alphabet.
    expect(new Set(codes.join('')).size).toBe(USER_CODE_ALPHABET.length);
  });

  it('are shown as XXXX-XXXX', () => {
    expect(formatUserCode('BCDFGHJK')).toBe('BCDF-GHJK');
  });

  it('are read in any case, with or without the dash or spaces', () => {
    for (const typed of ['BCDF-GHJK', 'bcdf-ghjk', 'bcdfghjk', ' Bcdf ghjK ', 'BC-DF-GH-JK'])
      expect(normalizeUserCode(typed)).toBe('BCDFGHJK');
  });

  it('are never a string of another length or with a letter outside the alphabet', () => {
    for (const typed of ['', 'BCDF-GHJ', 'BCDF-GHJKL', 'BCDF-GHJA', 'BCDF-GH0K', 'BCDF_GHJK'])
      expect(normalizeUserCode(typed)).toBeUndefined();
  });

  it('are stored by a hash of their canonical form', () => {
    expect(userCodeHash('BCDFGHJK')).toBe(userCodeHash(normalizeUserCode('bcdf-ghjk') ?? ''));
    expect(userCodeHash('BCDFGHJK')).not.toContain('BCDFGHJK');
    expect(userCodeHash('BCDFGHJK')).not.toBe(userCodeHash('BCDFGHJL'));
  });
});
