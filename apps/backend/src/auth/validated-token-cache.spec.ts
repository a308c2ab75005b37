import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { claimsFactory } from '../testing/fakes';
import { ValidatedTokenCache } from './validated-token-cache';

const NOW = 1_900_000_000;

describe(ValidatedTokenCache.name, () => {
  let now: number;
  let cache: ValidatedTokenCache;

  const live = (size = 10): ValidatedTokenCache => {
    const created = new ValidatedTokenCache(size, () => now);
    created.goLive();
    return created;
  };

  beforeEach(() => {
    now = NOW;
    cache = live();
  });

  it('answers a remembered token with frozen claims', () => {
    cache.remember('tok', claimsFactory({ exp: NOW + 60, roles: ['user'] }), cache.generation);

    const hit = cache.get('tok');

    expect(hit).toMatchObject({ jti: 'jti-1', roles: ['user'] });
    expect(Object.isFrozen(hit)).toBe(true);
    expect(Object.isFrozen(hit?.roles)).toBe(true);
    expect(cache.get('other')).toBeUndefined();
  });

  it('keeps every claim of a remembered token', () => {
    const claims = claimsFactory({
      exp: NOW + 60,
      tenant: 'acme',
      roles: ['user', 'auditor'],
      grant_id: 'g-1',
    });
    cache.remember('tok', claims, cache.generation);
    cache.remember('empty-roles', claimsFactory({ exp: NOW + 60, roles: [] }), cache.generation);

    expect(cache.get('tok')).toEqual(claims);
    expect(cache.get('empty-roles')).toMatchObject({ roles: [] });
    expect(Object.isFrozen(cache.get('empty-roles')?.roles)).toBe(true);
  });

  it('keeps the actor chain and the impersonation mode, frozen, and drops the token with an actor', () => {
    const act = { sub: 'admin-7', client_id: 'console', act: { sub: 'gateway', client_id: '', act: null } };
    const claims = claimsFactory({ exp: NOW + 60, iat: NOW - 10, act, impersonation: 'full' });
    cache.remember('tok', claims, cache.generation);

    const hit = cache.get('tok');

    expect(hit).toEqual(claims);
    expect(Object.isFrozen(hit?.act)).toBe(true);
    expect(Object.isFrozen(hit?.act?.act)).toBe(true);
    cache.revoke({ kind: 'subject', value: 'gateway', created_at: NOW });
    expect(cache.get('tok')).toBeUndefined();
  });

  it('holds 20,000 tokens of one client in under 400 bytes each', () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const big = live(20_000);
    // As the local verifier hands them over: every value a fresh string, as JSON.parse makes it.
    const parsed = (n: number) =>
      JSON.parse(
        JSON.stringify(claimsFactory({ jti: `jti-${n}-${'x'.repeat(12)}`, exp: NOW + 60 })),
      ) as ReturnType<typeof claimsFactory>;
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let n = 0; n < 20_000; n++) big.remember(`token-${n}`, parsed(n), big.generation);
    gc();
    const perToken = (process.memoryUsage().heapUsed - before) / 20_000;
    expect(big.size).toBe(20_000);
    expect(perToken).toBeLessThan(400);
  });

  it('stops answering a token once exp <= now, as jose does', () => {
    cache.remember('tok', claimsFactory({ exp: NOW + 1 }), cache.generation);
    expect(cache.get('tok')).toBeDefined();

    now = NOW + 1;

    expect(cache.get('tok')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('evicts the oldest entry when full', () => {
    cache = live(2);
    for (const token of ['a', 'b', 'c'])
      cache.remember(token, claimsFactory({ jti: token }), cache.generation);

    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('b')?.jti).toBe('b');
    expect(cache.get('c')?.jti).toBe('c');
  });

  it('does not keep an answer when an invalidation arrived while the sidecar was asked', () => {
    const generation = cache.generation;
    cache.revoke({ kind: 'jti', value: 'unrelated', created_at: NOW });

    cache.remember('tok', claimsFactory(), generation);

    expect(cache.get('tok')).toBeUndefined();
  });

  it('keeps nothing and answers nothing at size 0', () => {
    cache = live(0);
    cache.remember('tok', claimsFactory(), cache.generation);

    expect(cache.enabled).toBe(false);
    expect(cache.get('tok')).toBeUndefined();
  });

  it('answers nothing and keeps nothing before the stream is live', () => {
    cache = new ValidatedTokenCache(10, () => now);
    cache.remember('tok', claimsFactory(), cache.generation);
    cache.goLive();

    expect(cache.get('tok')).toBeUndefined();
  });

  it('forgets everything when the stream drops and does not answer until it is live again', () => {
    cache.remember('tok', claimsFactory(), cache.generation);
    const generation = cache.generation;

    cache.goDark();
    cache.remember('late', claimsFactory(), generation);
    cache.goLive();

    expect(cache.get('tok')).toBeUndefined();
    expect(cache.get('late')).toBeUndefined();
  });

  it('drops the tokens a jti, grant or client revocation denies, and only those', () => {
    const remember = (token: string, overrides: Parameters<typeof claimsFactory>[0]) =>
      cache.remember(token, claimsFactory(overrides), cache.generation);
    remember('by-jti', { jti: 'j1' });
    remember('by-grant', { jti: 'j2', grant_id: 'g1' });
    remember('old-of-client', { jti: 'j3', client_id: 'gone', iat: NOW - 10 });
    remember('new-of-client', { jti: 'j4', client_id: 'gone', iat: NOW + 10 });
    remember('bystander', { jti: 'j5' });

    cache.revoke({ kind: 'jti', value: 'j1', created_at: NOW });
    cache.revoke({ kind: 'grant', value: 'g1', created_at: NOW });
    cache.revoke({ kind: 'client', value: 'gone', created_at: NOW });

    expect(cache.get('by-jti')).toBeUndefined();
    expect(cache.get('by-grant')).toBeUndefined();
    expect(cache.get('old-of-client')).toBeUndefined();
    expect(cache.get('new-of-client')).toBeDefined();
    expect(cache.get('bystander')).toBeDefined();
  });

  it('forgets one token by its exact string', () => {
    cache.remember('tok', claimsFactory(), cache.generation);
    cache.remember('other', claimsFactory(), cache.generation);

    cache.forget('tok');

    expect(cache.get('tok')).toBeUndefined();
    expect(cache.get('other')).toBeDefined();
  });
});
