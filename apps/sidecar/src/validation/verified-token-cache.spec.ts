import type { TokenClaims } from '@platform/grpc';
import type { CryptoKey } from 'jose';
import { VerifiedTokenCache, type VerifiedToken } from './verified-token-cache';

const entry = (jti: string): VerifiedToken => ({
  claims: { jti } as TokenClaims,
  audiences: ['https://issuer.example'],
  kid: 'kid-1',
  alg: 'RS256',
  key: {} as CryptoKey,
});

describe(VerifiedTokenCache.name, () => {
  it('answers what was stored for the exact token string only', () => {
    const cache = new VerifiedTokenCache(10);
    cache.set('a.b.c', entry('1'));

    expect(cache.get('a.b.c')?.claims.jti).toBe('1');
    expect(cache.get('a.b.c ')).toBeUndefined();
    expect(cache.get('a.b.d')).toBeUndefined();
  });

  it('drops the oldest entry when full', () => {
    const cache = new VerifiedTokenCache(2);
    cache.set('t1', entry('1'));
    cache.set('t2', entry('2'));
    cache.set('t3', entry('3'));

    expect(cache.size).toBe(2);
    expect(cache.get('t1')).toBeUndefined();
    expect(cache.get('t3')?.claims.jti).toBe('3');
  });

  it('replaces an entry in place without dropping another', () => {
    const cache = new VerifiedTokenCache(2);
    cache.set('t1', entry('1'));
    cache.set('t2', entry('2'));
    cache.set('t2', entry('2b'));

    expect(cache.get('t1')?.claims.jti).toBe('1');
    expect(cache.get('t2')?.claims.jti).toBe('2b');
  });

  it('forgets a deleted token', () => {
    const cache = new VerifiedTokenCache(2);
    cache.set('t1', entry('1'));
    cache.delete('t1');

    expect(cache.get('t1')).toBeUndefined();
  });

  it('stores nothing with size 0', () => {
    const cache = new VerifiedTokenCache(0);
    cache.set('t1', entry('1'));

    expect(cache.size).toBe(0);
  });
});
