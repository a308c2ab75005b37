import { appHasSecret, appMayUseGrant, appNeedsRedirectUris, CLIENT_ID_PATTERN } from './application';

describe(appMayUseGrant.name, () => {
  it('lets a service app use client_credentials only', () => {
    expect(appMayUseGrant('service', 'client_credentials')).toBe(true);
    expect(appMayUseGrant('service', 'authorization_code')).toBe(false);
    expect(appMayUseGrant('service', 'refresh_token')).toBe(false);
  });

  it.each(['web', 'spa', 'cli'] as const)(
    'lets a %s app use authorization_code and refresh_token, never client_credentials',
    (type) => {
      expect(appMayUseGrant(type, 'authorization_code')).toBe(true);
      expect(appMayUseGrant(type, 'refresh_token')).toBe(true);
      expect(appMayUseGrant(type, 'client_credentials')).toBe(false);
    },
  );
});

describe(appHasSecret.name, () => {
  it('gives every app type a secret except spa', () => {
    expect(appHasSecret('spa')).toBe(false);
    expect(appHasSecret('service')).toBe(true);
    expect(appHasSecret('web')).toBe(true);
    expect(appHasSecret('cli')).toBe(true);
  });
});

describe(appNeedsRedirectUris.name, () => {
  it('asks redirect URIs of every app type except service', () => {
    expect(appNeedsRedirectUris('service')).toBe(false);
    expect(appNeedsRedirectUris('web')).toBe(true);
  });
});

describe('CLIENT_ID_PATTERN', () => {
  it('admits 3 to 64 characters of letters, digits, dot, underscore and hyphen', () => {
    expect(CLIENT_ID_PATTERN.test('abc')).toBe(true);
    expect(CLIENT_ID_PATTERN.test('Reports_worker-2.prod')).toBe(true);
    expect(CLIENT_ID_PATTERN.test('a'.repeat(64))).toBe(true);
  });

  it('refuses too short, too long and other characters', () => {
    expect(CLIENT_ID_PATTERN.test('ab')).toBe(false);
    expect(CLIENT_ID_PATTERN.test('a'.repeat(65))).toBe(false);
    expect(CLIENT_ID_PATTERN.test('has space')).toBe(false);
    expect(CLIENT_ID_PATTERN.test('colon:id')).toBe(false);
  });
});
