import { Logger } from '@nestjs/common';
import { LiveStreamAuthority, type LiveStreamEnd } from '@platform/domain';
import type { SidecarClient } from '../clients/sidecar.client';
import { claimsFactory, fakeSidecar, type FakeInvalidationStream, type FakeSidecar } from '../testing/fakes';
import { InvalidationWatcher } from './invalidation-watcher';
import { LocalTokenVerifier } from './local-token-verifier';
import { ValidatedTokenCache } from './validated-token-cache';

beforeAll(() => Logger.overrideLogger(false));
afterAll(() => Logger.overrideLogger(['log', 'error', 'warn']));

describe(InvalidationWatcher.name, () => {
  let sidecar: FakeSidecar;
  let cache: ValidatedTokenCache;
  let watcher: InvalidationWatcher;
  const streams: FakeInvalidationStream[] = [];
  const stream = (): FakeInvalidationStream => streams[streams.length - 1];

  let verifier: LocalTokenVerifier;
  let streamAuthority: LiveStreamAuthority;
  const KEY = {
    kty: 'RSA',
    use: 'sig',
    alg: 'RS256',
    kid: 'k1',
    n: 'AQAB',
    e: 'AQAB',
    crv: '',
    x: '',
    y: '',
  };
  const ready = (seq = 0, keys = [KEY]) =>
    stream().push({ seq, change: 'ready', ready: { keys, deny_list: [] } });
  const remember = (token: string, jti = token) =>
    cache.remember(token, claimsFactory({ jti }), cache.generation);

  beforeEach(() => {
    jest.useFakeTimers();
    streams.length = 0;
    sidecar = fakeSidecar();
    const open = sidecar.watchInvalidations.getMockImplementation()!;
    sidecar.watchInvalidations.mockImplementation(() => {
      const opened = open() as unknown as FakeInvalidationStream;
      streams.push(opened);
      return opened as never;
    });
    cache = new ValidatedTokenCache(100);
    verifier = new LocalTokenVerifier('http://issuer');
    streamAuthority = new LiveStreamAuthority();
    watcher = new InvalidationWatcher(sidecar as unknown as SidecarClient, cache, verifier, streamAuthority);
    watcher.onApplicationBootstrap();
  });

  afterEach(() => {
    watcher.onApplicationShutdown();
    jest.useRealTimers();
  });

  it('turns the cache and the local verifier on only once the stream says ready', () => {
    expect(sidecar.watchInvalidations).toHaveBeenCalledTimes(1);
    expect(cache.isLive).toBe(false);
    expect(verifier.isLive).toBe(false);

    ready();

    expect(cache.isLive).toBe(true);
    expect(verifier.isLive).toBe(true);
  });

  it('hands the verifier the ready state, every revocation and every new key set', () => {
    const goLive = jest.spyOn(verifier, 'goLive');
    const revoke = jest.spyOn(verifier, 'revoke');
    const replaceKeys = jest.spyOn(verifier, 'replaceKeys');
    const entry = { kind: 'jti', value: 'a', created_at: 0, expires_at: 2_000_000_000 };
    stream().push({ seq: 3, change: 'ready', ready: { keys: [KEY], deny_list: [entry] } });
    stream().push({ seq: 4, change: 'revocation', revocation: { ...entry, value: 'b' } });
    stream().push({ seq: 4, change: 'keys_changed', keys_changed: { keys: [] } });

    expect(goLive).toHaveBeenCalledWith([KEY], [entry]);
    expect(revoke).toHaveBeenCalledWith({ ...entry, value: 'b' });
    expect(replaceKeys).toHaveBeenCalledWith([]);
  });

  it('drops the tokens a revocation denies', () => {
    ready();
    remember('a');
    remember('b');

    stream().push({
      seq: 1,
      change: 'revocation',
      revocation: { kind: 'jti', value: 'a', created_at: 1, expires_at: 2_000_000_000 },
    });

    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('b')).toBeDefined();
  });

  it('drops everything when the key set changes', () => {
    ready();
    remember('a');

    stream().push({ seq: 0, change: 'keys_changed', keys_changed: { keys: [] } });

    expect(cache.size).toBe(0);
    expect(cache.isLive).toBe(true);
  });

  it('clears the cache and stops consulting it when the stream drops, then reconnects and goes live again', () => {
    ready();
    remember('a');

    stream().fail();

    expect(cache.isLive).toBe(false);
    expect(verifier.isLive).toBe(false);
    expect(cache.get('a')).toBeUndefined();
    jest.advanceTimersByTime(100);
    expect(sidecar.watchInvalidations).toHaveBeenCalledTimes(2);
    ready();
    expect(cache.isLive).toBe(true);
    expect(cache.get('a')).toBeUndefined();
  });

  it('waits longer between reconnects while the sidecar stays away', () => {
    stream().fail();
    jest.advanceTimersByTime(100);
    stream().fail();
    jest.advanceTimersByTime(100);
    expect(sidecar.watchInvalidations).toHaveBeenCalledTimes(2);
    jest.advanceTimersByTime(100);
    expect(sidecar.watchInvalidations).toHaveBeenCalledTimes(3);
  });

  it('watches for the live streams when the cache is disabled, but keeps the cache and the verifier off', () => {
    const offCache = new ValidatedTokenCache(0);
    const offVerifier = new LocalTokenVerifier('http://issuer');
    const disabled = new InvalidationWatcher(
      sidecar as unknown as SidecarClient,
      offCache,
      offVerifier,
      streamAuthority,
    );
    sidecar.watchInvalidations.mockClear();

    disabled.onApplicationBootstrap();
    ready();

    expect(sidecar.watchInvalidations).toHaveBeenCalledTimes(1);
    expect(offCache.isLive).toBe(false);
    expect(offVerifier.isLive).toBe(false);
    disabled.onApplicationShutdown();
  });

  describe('live streams', () => {
    const entry = (kind: string, value: string) => ({
      kind,
      value,
      created_at: 2_000,
      expires_at: 2_000_000_000,
    });
    let ends: LiveStreamEnd[];
    const hold = (jti: string) => streamAuthority.hold(claimsFactory({ jti }), (why) => ends.push(why));

    beforeEach(() => (ends = []));

    it('ends the streams a revocation denies', () => {
      ready();
      hold('a');
      hold('b');

      stream().push({ seq: 1, change: 'revocation', revocation: entry('jti', 'a') });

      expect(ends).toEqual(['token_revoked']);
    });

    it('judges the streams against the whole deny-list when the stream is ready', () => {
      hold('a');

      stream().push({ seq: 1, change: 'ready', ready: { keys: [KEY], deny_list: [entry('jti', 'a')] } });

      expect(ends).toEqual(['token_revoked']);
    });

    it('ends every stream when the stream is lost, since no revocation would reach them', () => {
      ready();
      hold('a');

      stream().fail();

      expect(ends).toEqual(['revocations_unavailable']);
    });
  });

  it('stops for good when the module is destroyed', () => {
    ready();
    watcher.onApplicationShutdown();

    expect(stream().cancel).toHaveBeenCalled();
    jest.advanceTimersByTime(10_000);
    expect(sidecar.watchInvalidations).toHaveBeenCalledTimes(1);
    expect(cache.isLive).toBe(false);
  });

  describe('settled', () => {
    it('confirms once the stream has delivered up to the seq', async () => {
      ready(4);
      const settled = watcher.settled(6, 1_000);
      stream().push({
        seq: 5,
        change: 'revocation',
        revocation: { kind: 'jti', value: 'x', created_at: 1, expires_at: 2_000_000_000 },
      });
      stream().push({ seq: 6, change: 'seq_advanced', seq_advanced: {} });

      await expect(settled).resolves.toBe(true);
    });

    it('confirms at once a seq the stream already delivered', async () => {
      ready(6);
      await expect(watcher.settled(6, 1_000)).resolves.toBe(true);
    });

    it('does not confirm when the stream stays behind past the timeout', async () => {
      ready(4);
      const settled = watcher.settled(6, 1_000);
      jest.advanceTimersByTime(1_000);

      await expect(settled).resolves.toBe(false);
    });

    it('confirms when the cache is dark (it holds nothing)', async () => {
      await expect(watcher.settled(6, 1_000)).resolves.toBe(true);
      ready(4);
      const settled = watcher.settled(6, 1_000);
      stream().fail();
      await expect(settled).resolves.toBe(true);
    });
  });
});
