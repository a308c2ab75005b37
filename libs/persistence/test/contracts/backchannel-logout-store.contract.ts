import type { BackchannelLogoutInput } from '@platform/domain';
import type { Contract } from '../support/contract';
import { aRefreshToken, anApplication, at, uniqueId } from '../support/factories';

const aLogout = (overrides: Partial<BackchannelLogoutInput> = {}): BackchannelLogoutInput => ({
  clientId: uniqueId('app'),
  subject: uniqueId('user'),
  sid: uniqueId('sid'),
  tenant: 'acme',
  ...overrides,
});

/** The back-channel logout outbox, the session grants it is filled from, and the apps' logout fields. */
export const backchannelLogoutStoreContract: Contract = (context) => {
  const store = () => context().stores.backchannelLogouts;
  const claim = (now: Date, limit = 10) =>
    store().claimBackchannelLogouts({ now, leaseUntil: new Date(now.getTime() + 20_000), limit });

  it('queues logouts pending and due at once, and lists those of a session', async () => {
    const logout = aLogout();
    await store().insertBackchannelLogouts([logout, aLogout()], at(0));

    await expect(store().listBackchannelLogoutsOfSession(logout.sid)).resolves.toEqual([
      {
        ...logout,
        id: expect.any(Number),
        state: 'pending',
        attempts: 0,
        nextAttemptAt: at(0),
        leaseUntil: null,
        lastStatus: null,
        lastError: null,
        createdAt: at(0),
      },
    ]);
  });

  it('leases each due logout to one claimer until its lease runs out', async () => {
    await store().insertBackchannelLogouts([aLogout(), aLogout()], at(0));

    const [first, second] = await Promise.all([claim(at(1)), claim(at(1))]);
    expect(first.length + second.length).toBe(2);
    expect(new Set([...first, ...second].map((l) => l.id)).size).toBe(2);
    expect(first.concat(second)[0].leaseUntil).toEqual(at(20_001));
    await expect(claim(at(2))).resolves.toEqual([]);
    // A claimer that died: the lease runs out and the logout is due again.
    await expect(claim(at(20_001))).resolves.toHaveLength(2);
  });

  it('records attempts: retried when due again, never again once finished', async () => {
    const pending = aLogout();
    const finished = aLogout();
    await store().insertBackchannelLogouts([pending, finished], at(0));
    const claimed = await claim(at(1));
    const idOf = (sid: string) => claimed.find((l) => l.sid === sid)!.id;

    await store().recordBackchannelLogoutAttempts([
      { id: idOf(pending.sid), status: 500, error: null, state: 'pending', nextAttemptAt: at(5_001) },
      { id: idOf(finished.sid), status: 204, error: null, state: 'succeeded', nextAttemptAt: at(1) },
    ]);

    await expect(store().listBackchannelLogoutsOfSession(pending.sid)).resolves.toEqual([
      expect.objectContaining({
        state: 'pending',
        attempts: 1,
        lastStatus: 500,
        leaseUntil: null,
        nextAttemptAt: at(5_001),
      }),
    ]);
    await expect(claim(at(5_000))).resolves.toEqual([]);
    await expect(claim(at(5_001))).resolves.toEqual([
      expect.objectContaining({ sid: pending.sid, attempts: 1 }),
    ]);
  });

  it('prunes finished logouts last tried by then, never pending ones', async () => {
    const done = aLogout();
    const waiting = aLogout();
    await store().insertBackchannelLogouts([done, waiting], at(0));
    const claimed = await claim(at(1));
    await store().recordBackchannelLogoutAttempts(
      claimed.map((l) => ({
        id: l.id,
        status: l.sid === done.sid ? 200 : 500,
        error: null,
        state: l.sid === done.sid ? ('succeeded' as const) : ('pending' as const),
        nextAttemptAt: at(10),
      })),
    );

    await expect(store().pruneBackchannelLogouts(at(10), 100)).resolves.toBe(1);
    await expect(store().listBackchannelLogoutsOfSession(done.sid)).resolves.toEqual([]);
    await expect(store().listBackchannelLogoutsOfSession(waiting.sid)).resolves.toHaveLength(1);
  });

  it('keeps no logout queued in a transaction that rolled back', async () => {
    const logout = aLogout();
    await expect(
      context().transactor.inTransaction(async (stores) => {
        await stores.backchannelLogouts.insertBackchannelLogouts([logout], at(0));
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await expect(store().listBackchannelLogoutsOfSession(logout.sid)).resolves.toEqual([]);
  });

  it('finds the live grants begun in a session, one per family, by its newest token', async () => {
    const refreshTokens = () => context().stores.refreshTokens;
    const sid = uniqueId('sid');
    const session = { sid, authTime: at(-1000) };
    const rotated = aRefreshToken({
      grantId: 'grant-a',
      scopes: ['jobs.read', 'offline_access'],
      session,
      createdAt: at(0),
      rotatedAt: at(5),
    });
    const newest = aRefreshToken({
      ...rotated,
      tokenHash: uniqueId('hash'),
      scopes: ['jobs.read'],
      createdAt: at(5),
      rotatedAt: null,
    });
    const revoked = aRefreshToken({ grantId: 'grant-b', session, revokedAt: at(1) });
    const expired = aRefreshToken({ grantId: 'grant-c', session, expiresAt: at(2) });
    const otherSession = aRefreshToken({ grantId: 'grant-d', session: { sid: 'other', authTime: at(0) } });
    const noSession = aRefreshToken({ grantId: 'grant-e' });
    for (const token of [rotated, newest, revoked, expired, otherSession, noSession]) {
      await refreshTokens().insertRefreshToken(token);
    }

    await expect(refreshTokens().listSessionGrants(sid, at(10))).resolves.toEqual([
      { grantId: 'grant-a', clientId: rotated.clientId, userId: rotated.userId, scopes: ['jobs.read'] },
    ]);
  });

  it('stores an app’s logout URIs, changes them and reads none as absent', async () => {
    const applications = () => context().stores.applications;
    const app = anApplication({
      postLogoutRedirectUris: ['https://billing.example/signed-out'],
      backchannelLogoutUri: 'https://billing.example/backchannel-logout',
    });
    await applications().insertApplication(app);
    await expect(applications().findApplication(app.clientId)).resolves.toEqual(app);

    await applications().updateApplicationExchange(app.clientId, {
      postLogoutRedirectUris: [],
      backchannelLogoutUri: null,
    });
    const cleared = await applications().findApplication(app.clientId);
    expect(cleared).not.toHaveProperty('postLogoutRedirectUris');
    expect(cleared).not.toHaveProperty('backchannelLogoutUri');
  });
};
