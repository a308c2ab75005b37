import { Logger } from '@nestjs/common';
import { DomainError } from '@platform/domain';
import type { SidecarClient } from '../clients/sidecar.client';
import { claimsFactory, fakeSidecar, type FakeSidecar } from '../testing/fakes';
import type { InvalidationWatcher } from './invalidation-watcher';
import { CONFIRM_TIMEOUT_MS, LocalRevocation } from './local-revocation';
import { ValidatedTokenCache } from './validated-token-cache';

beforeAll(() => Logger.overrideLogger(false));
afterAll(() => Logger.overrideLogger(['log', 'error', 'warn']));

describe(LocalRevocation.name, () => {
  let sidecar: FakeSidecar;
  let settled: jest.Mock<Promise<boolean>, [number, number]>;
  let cache: ValidatedTokenCache;
  let revocation: LocalRevocation;

  beforeEach(() => {
    sidecar = fakeSidecar();
    settled = jest.fn().mockResolvedValue(true);
    cache = new ValidatedTokenCache(10);
    cache.goLive();
    cache.remember('revoked', claimsFactory({ jti: 'r' }), cache.generation);
    cache.remember('bystander', claimsFactory({ jti: 'b' }), cache.generation);
    revocation = new LocalRevocation(
      sidecar as unknown as SidecarClient,
      { settled } as unknown as InvalidationWatcher,
      cache,
    );
  });

  it('syncs the sidecar and waits until the stream delivered its seq, dropping the revoked token', async () => {
    sidecar.syncRevocations.mockResolvedValue(7);

    await revocation.applyNow('revoked');

    expect(sidecar.syncRevocations).toHaveBeenCalledWith();
    expect(settled).toHaveBeenCalledWith(7, CONFIRM_TIMEOUT_MS);
    expect(cache.get('revoked')).toBeUndefined();
    expect(cache.get('bystander')).toBeDefined();
  });

  it('clears the whole cache when the stream does not confirm in time', async () => {
    settled.mockResolvedValue(false);

    await revocation.applyNow();

    expect(cache.size).toBe(0);
  });

  it('clears the whole cache, without failing, when the sidecar cannot be synced', async () => {
    sidecar.syncRevocations.mockRejectedValue(new DomainError('unavailable', 'down'));

    await expect(revocation.applyNow()).resolves.toBeUndefined();

    expect(cache.size).toBe(0);
  });
});
