import { Logger } from '@nestjs/common';
import type { PlatformConfig } from '@platform/config';
import type { Stores } from '@platform/domain';
import { metrics } from '@platform/telemetry';
import { RETENTION_SWEEP_MS, RetentionSweepLoop } from './retention-sweep';

const config = { retention: { graceSeconds: 3_600, tokenEventDays: 30 } } as PlatformConfig;
const clock = { now: () => new Date('2026-05-21T10:00:00.000Z') };

/** Stores that delete `deleted[table]` rows once, then nothing. */
function storesDeleting(deleted: { sessions: number; revocations: number }): Stores {
  const once = (rows: number) => jest.fn().mockResolvedValueOnce(rows).mockResolvedValue(0);
  return {
    revocations: { pruneRevocations: once(deleted.revocations) },
    authorizationCodes: { pruneAuthorizationCodes: once(0) },
    sessions: { pruneSessions: once(deleted.sessions) },
    refreshTokens: { pruneRefreshTokens: once(0) },
    tokenEvents: { pruneTokenEvents: once(0) },
    deviceAuthorizations: { pruneDeviceAuthorizations: once(0) },
    backchannelLogouts: { pruneBackchannelLogouts: once(0) },
    assertionReplays: { pruneAssertions: once(0) },
    samlRequests: { pruneSamlRequests: once(0) },
    quotas: { pruneConsumptions: once(0) },
  } as unknown as Stores;
}

const deletedRows = async (table: string): Promise<number> =>
  (await metrics.retentionDeletedRows.get()).values.find((v) => v.labels.table === table)?.value ?? 0;

describe(RetentionSweepLoop.name, () => {
  afterEach(() => jest.restoreAllMocks());

  it('logs what a run deleted and counts it by table', async () => {
    const log = jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    const before = await deletedRows('sessions');
    const loop = new RetentionSweepLoop(config, storesDeleting({ sessions: 3, revocations: 2 }), clock);

    await expect(loop.run()).resolves.toMatchObject({ sessions: 3, revocations: 2 });

    expect(await deletedRows('sessions')).toBe(before + 3);
    expect(log).toHaveBeenCalledWith(
      'retention sweep deleted revocations=2 authorization_codes=0 sessions=3 refresh_tokens=0 token_events=0 device_authorizations=0 backchannel_logouts=0 assertion_uses=0 saml_requests=0 quota_consumptions=0',
    );
  });

  it('logs a failure by name only, and the next run goes ahead', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const stores = storesDeleting({ sessions: 0, revocations: 0 });
    const failure = Object.assign(new Error('password=hunter2 in a DSN'), { name: 'QueryFailedError' });
    stores.revocations.pruneRevocations = jest.fn().mockRejectedValueOnce(failure).mockResolvedValue(0);
    const loop = new RetentionSweepLoop(config, stores, clock);
    jest.useFakeTimers();
    loop.onApplicationBootstrap();

    await jest.advanceTimersByTimeAsync(RETENTION_SWEEP_MS);
    expect(warn).toHaveBeenCalledWith('retention sweep failed: QueryFailedError');
    await jest.advanceTimersByTimeAsync(RETENTION_SWEEP_MS);
    expect(stores.sessions.pruneSessions).toHaveBeenCalledTimes(1);

    await loop.onApplicationShutdown();
    jest.useRealTimers();
  });
});
