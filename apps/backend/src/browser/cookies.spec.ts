import { cookieSettings } from './cookies';

describe('cookieSettings', () => {
  it.each([
    ['development', 'http://localhost:3000'],
    ['test', 'http://127.0.0.1:4000'],
  ] as const)('uses plain names without Secure in %s over HTTP', (nodeEnv, issuer) => {
    expect(cookieSettings({ nodeEnv, issuer })).toEqual({
      secure: false,
      session: 'session',
      loginTransaction: 'login',
      samlTransaction: 'saml',
    });
  });

  it.each([
    ['development', 'https://auth.example.test'],
    ['production', 'https://auth.example.com'],
    ['production', 'http://auth.internal'],
  ] as const)('uses Secure __Host- cookies in %s at %s', (nodeEnv, issuer) => {
    expect(cookieSettings({ nodeEnv, issuer })).toEqual({
      secure: true,
      session: '__Host-session',
      loginTransaction: '__Host-login',
      samlTransaction: '__Host-saml',
    });
  });
});
