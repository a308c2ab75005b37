import { CsrfTokens } from './csrf';
import { deriveKey } from './keys';

describe(CsrfTokens.name, () => {
  const csrf = new CsrfTokens(deriveKey('internal-token-of-at-least-32-characters', 'csrf'));

  it('accepts the token of the same session', () => {
    expect(csrf.matches('session-a', csrf.tokenFor('session-a'))).toBe(true);
  });

  it('refuses a missing token', () => {
    expect(csrf.matches('session-a', undefined)).toBe(false);
    expect(csrf.matches('session-a', '')).toBe(false);
  });

  it('refuses a wrong token', () => {
    const token = csrf.tokenFor('session-a');
    const wrong = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    expect(csrf.matches('session-a', wrong)).toBe(false);
  });

  it('refuses the token of another session', () => {
    expect(csrf.matches('session-a', csrf.tokenFor('session-b'))).toBe(false);
  });

  it('refuses any token when there is no session', () => {
    expect(csrf.matches(undefined, csrf.tokenFor(''))).toBe(false);
  });

  it('refuses a token made with another internal token', () => {
    const other = new CsrfTokens(deriveKey('another-internal-token-of-32-characters', 'csrf'));
    expect(csrf.matches('session-a', other.tokenFor('session-a'))).toBe(false);
  });

  it('refuses a token that is not a string (a repeated form field)', () => {
    expect(csrf.matches('session-a', [csrf.tokenFor('session-a')])).toBe(false);
  });
});
