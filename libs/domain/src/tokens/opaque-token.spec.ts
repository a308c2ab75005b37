import { createHash } from 'node:crypto';
import {
  authorizationCodes,
  isCompactJws,
  loginCodes,
  OpaqueTokenStrategy,
  opaqueTokenKind,
  refreshTokens,
  sessionTokens,
  TOKEN_PREFIXES,
} from './opaque-token';

const sha256 = (value: string) => createHash('sha256').update(value).digest('base64url');

describe(OpaqueTokenStrategy.name, () => {
  it.each([
    [refreshTokens, 'plat_rt_'],
    [authorizationCodes, 'plat_ac_'],
    [loginCodes, 'plat_lc_'],
    [sessionTokens, 'plat_ss_'],
  ])('gives every %s its prefix and 256 random bits, storing only the SHA-256', (strategy, prefix) => {
    const { value, hash } = strategy.generate();
    expect(value.startsWith(prefix)).toBe(true);
    expect(value.slice(prefix.length)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(hash).toBe(sha256(value));
    expect(strategy.generate().value).not.toBe(value);
    expect(opaqueTokenKind(value)).toBe(strategy.kind);
  });

  it('accepts its own kind and refuses every other kind', () => {
    const refresh = refreshTokens.generate().value;
    expect(refreshTokens.accepts(refresh)).toBe(true);
    for (const other of [authorizationCodes, loginCodes, sessionTokens]) {
      expect(other.accepts(refresh)).toBe(false);
      expect(refreshTokens.accepts(other.generate().value)).toBe(false);
    }
  });

  it('accepts an unprefixed value issued before prefixes, hashed as it always was', () => {
    const legacy = 'Yq3b8y2l0ZkzJ0m0bV8j3x1pQe6Wc9tR5nA4uH7sK2g';
    expect(refreshTokens.accepts(legacy)).toBe(true);
    expect(refreshTokens.hash(legacy)).toBe(sha256(legacy));
  });

  it('never takes a JWT (an access token) for an opaque token', () => {
    const jwt = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln';
    expect(isCompactJws(jwt)).toBe(true);
    expect(refreshTokens.accepts(jwt)).toBe(false);
    expect(opaqueTokenKind(jwt)).toBeUndefined();
  });

  it('has one distinct prefix per kind', () => {
    const prefixes = Object.values(TOKEN_PREFIXES);
    expect(new Set(prefixes).size).toBe(prefixes.length);
  });
});
