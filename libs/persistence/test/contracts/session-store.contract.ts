import type { Contract } from '../support/contract';
import { aSession, at } from '../support/factories';

export const sessionStoreContract: Contract = (context) => {
  const store = () => context().stores.sessions;

  it('finds a session by its hash, with every field intact', async () => {
    const session = aSession();
    await store().insertSession(session);

    await expect(store().findSession(session.sessionHash)).resolves.toEqual(session);
  });

  it('answers null for an unknown hash', async () => {
    await expect(store().findSession('no-such-session')).resolves.toBeNull();
  });

  it('refuses a second session with the same hash', async () => {
    const session = aSession();
    await store().insertSession(session);

    await expect(store().insertSession({ ...session, userId: 'someone-else' })).rejects.toThrow();
    await expect(store().findSession(session.sessionHash)).resolves.toEqual(session);
  });

  it('ends a session once, keeping the first end time', async () => {
    const session = aSession();
    await store().insertSession(session);

    await expect(store().endSession(session.sessionHash, at(10))).resolves.toBe(true);
    await expect(store().endSession(session.sessionHash, at(20))).resolves.toBe(false);
    await expect(store().findSession(session.sessionHash)).resolves.toEqual({ ...session, endedAt: at(10) });
  });

  it('answers false when ending an unknown session', async () => {
    await expect(store().endSession('no-such-session', at(10))).resolves.toBe(false);
  });

  it('ends only the session named, not the other sessions of the user', async () => {
    const laptop = aSession({ userId: 'user-1' });
    const phone = aSession({ userId: 'user-1' });
    for (const session of [laptop, phone]) await store().insertSession(session);

    await store().endSession(laptop.sessionHash, at(10));

    await expect(store().findSession(phone.sessionHash)).resolves.toEqual(phone);
  });

  it('keeps no session created in a transaction that rolled back', async () => {
    const session = aSession();

    await expect(
      context().transactor.inTransaction(async (stores) => {
        await stores.sessions.insertSession(session);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');

    await expect(store().findSession(session.sessionHash)).resolves.toBeNull();
  });

  it('ends every live session of a user, and no other', async () => {
    const laptop = aSession({ userId: 'user-gone' });
    const phone = aSession({ userId: 'user-gone' });
    const ended = aSession({ userId: 'user-gone', endedAt: at(1) });
    const other = aSession({ userId: 'user-staying' });
    for (const session of [laptop, phone, ended, other]) await store().insertSession(session);

    await expect(store().endSessionsOfUser('user-gone', at(10))).resolves.toBe(2);

    await expect(store().findSession(laptop.sessionHash)).resolves.toEqual({ ...laptop, endedAt: at(10) });
    await expect(store().findSession(ended.sessionHash)).resolves.toEqual(ended);
    await expect(store().findSession(other.sessionHash)).resolves.toEqual(other);
  });
};
