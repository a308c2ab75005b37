import type { DeviceAuthorizationRecord } from '@platform/domain';
import type { Contract } from '../support/contract';
import { at, T0, uniqueId } from '../support/factories';

export function aDeviceAuthorization(
  overrides: Partial<DeviceAuthorizationRecord> = {},
): DeviceAuthorizationRecord {
  return {
    deviceCodeHash: uniqueId('device-hash'),
    userCodeHash: uniqueId('user-code-hash'),
    grantId: uniqueId('grant'),
    clientId: uniqueId('app'),
    scopes: ['jobs.read', 'files.read'],
    status: 'pending',
    userId: null,
    createdAt: T0,
    expiresAt: at(600_000),
    intervalSeconds: 5,
    lastPolledAt: null,
    decidedAt: null,
    consumedAt: null,
    ...overrides,
  };
}

export const deviceAuthorizationStoreContract: Contract = (context) => {
  const store = () => context().stores.deviceAuthorizations;
  const inserted = async (overrides: Partial<DeviceAuthorizationRecord> = {}) => {
    const record = aDeviceAuthorization(overrides);
    await expect(store().insertDeviceAuthorization(record)).resolves.toBe('created');
    return record;
  };

  it('finds a request by its device code and by its user code, as stored', async () => {
    const record = await inserted();

    await expect(store().findDeviceAuthorization(record.deviceCodeHash)).resolves.toEqual(record);
    await expect(store().findDeviceAuthorizationByUserCode(record.userCodeHash)).resolves.toEqual(record);
    await expect(store().findDeviceAuthorization('no-such-code')).resolves.toBeNull();
    await expect(store().findDeviceAuthorizationByUserCode('no-such-code')).resolves.toBeNull();
  });

  it('answers duplicate for a user code another request holds', async () => {
    const first = await inserted();

    await expect(
      store().insertDeviceAuthorization(aDeviceAuthorization({ userCodeHash: first.userCodeHash })),
    ).resolves.toBe('duplicate');
  });

  it('answers duplicate for a taken user code inside a transaction, which carries on', async () => {
    const first = await inserted();
    const second = aDeviceAuthorization();

    const results = await context().transactor.inTransaction(async (stores) => [
      await stores.deviceAuthorizations.insertDeviceAuthorization(
        aDeviceAuthorization({ userCodeHash: first.userCodeHash }),
      ),
      await stores.deviceAuthorizations.insertDeviceAuthorization(second),
    ]);

    expect(results).toEqual(['duplicate', 'created']);
    await expect(store().findDeviceAuthorization(second.deviceCodeHash)).resolves.toEqual(second);
  });

  describe('decisions', () => {
    it('records the approval of a pending request with its user', async () => {
      const record = await inserted();

      const decided = await store().decideDeviceAuthorization(
        record.userCodeHash,
        { status: 'approved', userId: 'user-1' },
        at(1_000),
      );

      const expected = { ...record, status: 'approved', userId: 'user-1', decidedAt: at(1_000) };
      expect(decided).toEqual(expected);
      await expect(store().findDeviceAuthorization(record.deviceCodeHash)).resolves.toEqual(expected);
    });

    it('decides a request once: a second decision finds nothing to decide', async () => {
      const record = await inserted();
      await store().decideDeviceAuthorization(record.userCodeHash, { status: 'denied', userId: 'u1' }, at(1));

      await expect(
        store().decideDeviceAuthorization(record.userCodeHash, { status: 'approved', userId: 'u2' }, at(2)),
      ).resolves.toBeNull();
      await expect(store().findDeviceAuthorization(record.deviceCodeHash)).resolves.toMatchObject({
        status: 'denied',
        userId: 'u1',
      });
    });

    it('lets exactly one of two concurrent decisions win', async () => {
      const record = await inserted();
      const decide = (userId: string) =>
        context().transactor.inTransaction((stores) =>
          stores.deviceAuthorizations.decideDeviceAuthorization(
            record.userCodeHash,
            { status: 'approved', userId },
            at(1),
          ),
        );

      const results = await Promise.all([decide('u1'), decide('u2')]);

      expect(results.filter((result) => result !== null)).toHaveLength(1);
    });

    it('does not decide an expired request or an unknown code', async () => {
      const record = await inserted({ expiresAt: at(10) });

      await expect(
        store().decideDeviceAuthorization(record.userCodeHash, { status: 'approved', userId: 'u' }, at(10)),
      ).resolves.toBeNull();
      await expect(
        store().decideDeviceAuthorization('no-such-code', { status: 'approved', userId: 'u' }, at(1)),
      ).resolves.toBeNull();
    });
  });

  describe('polls', () => {
    it('takes the first poll and one after the interval, recording each', async () => {
      const record = await inserted();

      await expect(store().recordDevicePoll(record.deviceCodeHash, at(1_000))).resolves.toEqual({
        record: { ...record, lastPolledAt: at(1_000) },
        tooSoon: false,
      });
      await expect(store().recordDevicePoll(record.deviceCodeHash, at(6_000))).resolves.toEqual({
        record: { ...record, lastPolledAt: at(6_000) },
        tooSoon: false,
      });
    });

    it('finds a poll before the interval too soon, and adds 5 s to the interval from then on', async () => {
      const record = await inserted();
      await store().recordDevicePoll(record.deviceCodeHash, at(1_000));

      await expect(store().recordDevicePoll(record.deviceCodeHash, at(5_999))).resolves.toEqual({
        record: { ...record, lastPolledAt: at(5_999), intervalSeconds: 10 },
        tooSoon: true,
      });
      // 10 s now: 6 s later is too soon again, 10 s later is on time.
      await expect(store().recordDevicePoll(record.deviceCodeHash, at(11_999))).resolves.toMatchObject({
        record: { intervalSeconds: 15 },
        tooSoon: true,
      });
      await expect(store().recordDevicePoll(record.deviceCodeHash, at(26_999))).resolves.toMatchObject({
        record: { intervalSeconds: 15, lastPolledAt: at(26_999) },
        tooSoon: false,
      });
    });

    it('finds one of two concurrent polls too soon', async () => {
      const record = await inserted();
      const poll = () =>
        context().transactor.inTransaction((stores) =>
          stores.deviceAuthorizations.recordDevicePoll(record.deviceCodeHash, at(1_000)),
        );

      const results = await Promise.all([poll(), poll()]);

      expect(results.map((result) => result?.tooSoon).sort()).toEqual([false, true]);
    });

    it('answers null for an unknown device code', async () => {
      await expect(store().recordDevicePoll('no-such-code', at(1))).resolves.toBeNull();
    });
  });

  describe('consumption', () => {
    it('consumes an approved request once', async () => {
      const record = await inserted({ status: 'approved', userId: 'u1', decidedAt: at(1) });

      await expect(store().consumeDeviceAuthorization(record.deviceCodeHash, at(2))).resolves.toBe(true);
      await expect(store().consumeDeviceAuthorization(record.deviceCodeHash, at(3))).resolves.toBe(false);
      await expect(store().findDeviceAuthorization(record.deviceCodeHash)).resolves.toMatchObject({
        consumedAt: at(2),
      });
    });

    it('does not consume a pending or denied request', async () => {
      const pending = await inserted();
      const denied = await inserted({ status: 'denied', userId: 'u1' });

      await expect(store().consumeDeviceAuthorization(pending.deviceCodeHash, at(2))).resolves.toBe(false);
      await expect(store().consumeDeviceAuthorization(denied.deviceCodeHash, at(2))).resolves.toBe(false);
      await expect(store().consumeDeviceAuthorization('no-such-code', at(2))).resolves.toBe(false);
    });

    it('lets exactly one of two concurrent transactions consume it', async () => {
      const record = await inserted({ status: 'approved', userId: 'u1' });
      const consume = () =>
        context().transactor.inTransaction((stores) =>
          stores.deviceAuthorizations.consumeDeviceAuthorization(record.deviceCodeHash, at(2)),
        );

      await expect(Promise.all([consume(), consume()]).then((won) => won.sort())).resolves.toEqual([
        false,
        true,
      ]);
    });
  });

  describe('retention', () => {
    it('deletes the requests expired at or before the instant, at most limit at a time', async () => {
      const gone = [await inserted({ expiresAt: at(-1) }), await inserted({ expiresAt: T0 })];
      const kept = await inserted({ expiresAt: at(1) });

      await expect(store().pruneDeviceAuthorizations(T0, 1)).resolves.toBe(1);
      await expect(store().pruneDeviceAuthorizations(T0, 10)).resolves.toBe(1);

      for (const record of gone)
        await expect(store().findDeviceAuthorization(record.deviceCodeHash)).resolves.toBeNull();
      await expect(store().findDeviceAuthorization(kept.deviceCodeHash)).resolves.toEqual(kept);
    });
  });
};
