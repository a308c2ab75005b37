import { Logger } from '@nestjs/common';
import { exportJWK, type JWK } from 'jose';
import type { ControlPlaneApi } from '../control-plane/control-plane-api';
import { Readiness } from '../health/readiness';
import { ManualClock } from '@platform/domain';
import { testConfig } from '../testing/test-config';
import { createTestKey, type TestKey } from '../testing/test-keys';
import { KeyCache } from './key-cache';

describe(KeyCache.name, () => {
  let rsa: TestKey;
  let ec: TestKey;
  let fetchJwks: jest.Mock<Promise<{ keys: JWK[] }>, []>;
  let clock: ManualClock;
  let readiness: Readiness;
  let cache: KeyCache;

  beforeAll(async () => {
    Logger.overrideLogger(false);
    [rsa, ec] = await Promise.all([createTestKey('RS256'), createTestKey('ES256')]);
  });

  beforeEach(() => {
    fetchJwks = jest.fn();
    const controlPlane = { fetchJwks } as unknown as ControlPlaneApi;
    clock = new ManualClock();
    readiness = new Readiness();
    cache = new KeyCache(controlPlane, testConfig(), clock, readiness);
  });

  const publishes = (...keys: JWK[]) => fetchJwks.mockResolvedValue({ keys: structuredClone(keys) });

  it('tells change watchers of a key added, replaced or dropped, and nothing for an unchanged set', async () => {
    const changed = jest.fn();
    cache.watchChanges(changed);
    const replacement = await createTestKey('RS256');
    publishes(rsa.publicJwk);
    await cache.refresh();
    expect(changed).toHaveBeenCalledTimes(1);
    await cache.refresh();
    expect(changed).toHaveBeenCalledTimes(1);

    publishes(rsa.publicJwk, ec.publicJwk);
    await cache.refresh();
    expect(changed).toHaveBeenCalledTimes(2);

    publishes({ ...replacement.publicJwk, kid: rsa.kid }, ec.publicJwk);
    await cache.refresh();
    expect(changed).toHaveBeenCalledTimes(3);

    publishes(ec.publicJwk);
    await cache.refresh();
    expect(changed).toHaveBeenCalledTimes(4);
    expect(cache.publicKeys().map((key) => key.kid)).toEqual([ec.kid]);
  });

  it('imports every published key for its algorithm', async () => {
    publishes(rsa.publicJwk, ec.publicJwk);

    await cache.refresh();

    expect(cache.find(rsa.kid, 'RS256')).toBeDefined();
    expect(cache.find(ec.kid, 'ES256')).toBeDefined();
    expect(cache.find(rsa.kid, 'ES256')).toBeUndefined();
  });

  it('lets an RSA key without alg verify RS256 and PS256', async () => {
    publishes({ ...rsa.publicJwk, alg: undefined });

    await cache.refresh();

    expect(cache.find(rsa.kid, 'RS256')).toBeDefined();
    expect(cache.find(rsa.kid, 'PS256')).toBeDefined();
  });

  it('marks the keys loaded for readiness after the first refresh', async () => {
    publishes(rsa.publicJwk);
    expect(readiness.ready).toBe(false);

    await cache.refresh();
    readiness.markLoaded('denyList');
    readiness.markLoaded('definitions');

    expect(readiness.ready).toBe(true);
  });

  it('ignores symmetric keys, encryption keys and keys without a kid', async () => {
    publishes(
      { kty: 'oct', k: 'c2VjcmV0LXNlY3JldC1zZWNyZXQtc2VjcmV0', kid: 'hmac', alg: 'HS256' },
      { ...rsa.publicJwk, kid: 'enc', use: 'enc' },
      { ...rsa.publicJwk, kid: undefined },
      rsa.publicJwk,
    );

    await cache.refresh();

    expect(cache.has('hmac')).toBe(false);
    expect(cache.has('enc')).toBe(false);
    expect(cache.publicKeys().map((key) => key.kid)).toEqual([rsa.kid]);
  });

  it('publishes public members only, even when the control plane leaks private ones', async () => {
    const { privateKey } = await createTestKey('RS256');
    const leaked = { ...(await exportJWK(privateKey)), kid: 'leaky', alg: 'RS256' };
    publishes(leaked);

    await cache.refresh();

    const [published] = cache.publicKeys();
    expect(Object.keys(published).sort()).toEqual(['alg', 'e', 'kid', 'kty', 'n', 'use']);
  });

  it('drops a key the control plane no longer publishes', async () => {
    publishes(rsa.publicJwk, ec.publicJwk);
    await cache.refresh();
    publishes(ec.publicJwk);

    await cache.refresh();

    expect(cache.has(rsa.kid)).toBe(false);
    expect(cache.has(ec.kid)).toBe(true);
  });

  it('keeps the previous keys when a refresh fails', async () => {
    publishes(rsa.publicJwk);
    await cache.refresh();
    fetchJwks.mockRejectedValue(new Error('control plane unreachable'));

    await expect(cache.refresh()).rejects.toThrow('control plane unreachable');

    expect(cache.find(rsa.kid, 'RS256')).toBeDefined();
  });

  it('shares one fetch between concurrent refreshes', async () => {
    publishes(rsa.publicJwk);

    await Promise.all([cache.refresh(), cache.refresh(), cache.refreshForUnknownKid()]);

    expect(fetchJwks).toHaveBeenCalledTimes(1);
  });

  it('reuses the imported key when a refresh brings the same key again', async () => {
    publishes(rsa.publicJwk);
    await cache.refresh();
    const before = cache.find(rsa.kid, 'RS256');

    await cache.refresh();

    expect(cache.find(rsa.kid, 'RS256')).toBe(before);
  });

  describe('on an unknown kid', () => {
    beforeEach(async () => {
      publishes(rsa.publicJwk);
      await cache.refresh();
      fetchJwks.mockClear();
    });

    it('refreshes at once and then knows a key published since', async () => {
      publishes(rsa.publicJwk, ec.publicJwk);

      await cache.refreshForUnknownKid();

      expect(fetchJwks).toHaveBeenCalledTimes(1);
      expect(cache.find(ec.kid, 'ES256')).toBeDefined();
    });

    it('refreshes at most once per 5 s', async () => {
      await cache.refreshForUnknownKid();
      clock.advance(4_999);
      await cache.refreshForUnknownKid();

      expect(fetchJwks).toHaveBeenCalledTimes(1);
    });

    it('refreshes again once 5 s have passed', async () => {
      await cache.refreshForUnknownKid();
      clock.advance(5_000);
      await cache.refreshForUnknownKid();

      expect(fetchJwks).toHaveBeenCalledTimes(2);
    });

    it('does not reject when the control plane is down', async () => {
      fetchJwks.mockRejectedValue(new Error('control plane unreachable'));

      await expect(cache.refreshForUnknownKid()).resolves.toBeUndefined();
      expect(cache.has(rsa.kid)).toBe(true);
    });
  });
});
