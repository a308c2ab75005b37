import { PKCE_CHALLENGE, PKCE_VERIFIER } from '../testing/in-memory-stores';
import { isCodeVerifier, isS256CodeChallenge, s256CodeChallenge, verifyS256CodeVerifier } from './pkce';

describe('PKCE S256', () => {
  it('derives the challenge of RFC 7636 Appendix B from its verifier', () => {
    expect(s256CodeChallenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe(
      'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    );
  });

  it('accepts the verifier of its challenge', () => {
    expect(verifyS256CodeVerifier(PKCE_VERIFIER, PKCE_CHALLENGE)).toBe(true);
  });

  it('refuses any other verifier, even one differing in a single character', () => {
    expect(verifyS256CodeVerifier(`${PKCE_VERIFIER.slice(0, -1)}l`, PKCE_CHALLENGE)).toBe(false);
    expect(verifyS256CodeVerifier('a'.repeat(43), PKCE_CHALLENGE)).toBe(false);
  });

  it('refuses the challenge itself presented as the verifier (the plain method)', () => {
    expect(verifyS256CodeVerifier(PKCE_CHALLENGE, PKCE_CHALLENGE)).toBe(false);
  });

  it('refuses a malformed verifier before hashing it', () => {
    const short = 'a'.repeat(42);
    const challenge = s256CodeChallenge(short);
    expect(verifyS256CodeVerifier(short, challenge)).toBe(false);
  });

  it('knows the verifier syntax of RFC 7636 section 4.1: 43 to 128 unreserved characters', () => {
    expect(isCodeVerifier('a'.repeat(43))).toBe(true);
    expect(isCodeVerifier('A1-._~'.repeat(21) + 'xy')).toBe(true);
    expect(isCodeVerifier('a'.repeat(128))).toBe(true);
    expect(isCodeVerifier('a'.repeat(42))).toBe(false);
    expect(isCodeVerifier('a'.repeat(129))).toBe(false);
    expect(isCodeVerifier(`${'a'.repeat(42)}+`)).toBe(false);
    expect(isCodeVerifier(`${'a'.repeat(42)}=`)).toBe(false);
    expect(isCodeVerifier(`${'a'.repeat(42)} `)).toBe(false);
  });

  it('knows an S256 challenge: exactly 43 characters of base64url', () => {
    expect(isS256CodeChallenge(PKCE_CHALLENGE)).toBe(true);
    expect(isS256CodeChallenge(PKCE_CHALLENGE.slice(1))).toBe(false);
    expect(isS256CodeChallenge(`${PKCE_CHALLENGE}=`)).toBe(false);
    expect(isS256CodeChallenge(`${PKCE_CHALLENGE.slice(1)}+`)).toBe(false);
    expect(isS256CodeChallenge(`${PKCE_CHALLENGE.slice(1)}.`)).toBe(false);
  });
});
