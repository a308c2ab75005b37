import type { Contract } from '../support/contract';
import { aRefreshToken, at } from '../support/factories';

export const refreshTokenStoreContract: Contract = (context) => {
  const store = () => context().stores.refreshTokens;

  it('finds a token by its hash, with every field intact', async () => {
    const token = aRefreshToken();
    await store().insertRefreshToken(token);

    await expect(store().findRefreshToken(token.tokenHash)).resolves.toEqual(token);
  });

  it('keeps the session a family began in, and a token without one has none', async () => {
    const session = { sid: 'sid-1', authTime: at(-60_000) };
    const withSession = aRefreshToken({ session });
    const without = aRefreshToken();
    await store().insertRefreshToken(withSession);
    await store().insertRefreshToken(without);

    await expect(store().findRefreshToken(withSession.tokenHash)).resolves.toEqual(withSession);
    expect(await store().findRefreshToken(without.tokenHash)).not.toHaveProperty('session');
  });

  it('keeps the DPoP key a family is bound to, and an unbound token has none', async () => {
    const bound = aRefreshToken({ dpopJkt: 'NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs' });
    const unbound = aRefreshToken();
    await store().insertRefreshToken(bound);
    await store().insertRefreshToken(unbound);

    await expect(store().findRefreshToken(bound.tokenHash)).resolves.toEqual(bound);
    expect(await store().findRefreshToken(unbound.tokenHash)).not.toHaveProperty('dpopJkt');
  });

  it("finds a user's live tokens of one client: not rotated, revoked, expired, another's", async () => {
    const mine = { userId: 'user-live', clientId: 'app-live' };
    const live = aRefreshToken(mine);
    await store().insertRefreshToken(live);
    const rotated = aRefreshToken(mine);
    await store().insertRefreshToken(rotated);
    await store().markRefreshTokenRotated(rotated.tokenHash, at(1));
    const revoked = aRefreshToken(mine);
    await store().insertRefreshToken(revoked);
    await store().revokeRefreshTokenFamily(revoked.grantId, at(1));
    await store().insertRefreshToken(aRefreshToken({ ...mine, expiresAt: at(10) }));
    await store().insertRefreshToken(aRefreshToken({ userId: 'user-live' }));
    await store().insertRefreshToken(aRefreshToken({ clientId: 'app-live' }));

    await expect(store().findLiveRefreshTokens('user-live', 'app-live', at(10))).resolves.toEqual([live]);
  });

  it('answers null for an unknown hash', async () => {
    await expect(store().findRefreshToken('no-such-token')).resolves.toBeNull();
  });

  it('rotates a token once', async () => {
    const token = aRefreshToken();
    await store().insertRefreshToken(token);

    await expect(store().markRefreshTokenRotated(token.tokenHash, at(10))).resolves.toBe(true);
    await expect(store().markRefreshTokenRotated(token.tokenHash, at(20))).resolves.toBe(false);
    await expect(store().findRefreshToken(token.tokenHash)).resolves.toEqual({ ...token, rotatedAt: at(10) });
  });

  it('refuses to rotate a revoked token', async () => {
    const token = aRefreshToken();
    await store().insertRefreshToken(token);
    await store().revokeRefreshTokenFamily(token.grantId, at(5));

    await expect(store().markRefreshTokenRotated(token.tokenHash, at(10))).resolves.toBe(false);
  });

  it('refuses to rotate an unknown token', async () => {
    await expect(store().markRefreshTokenRotated('no-such-token', at(10))).resolves.toBe(false);
  });

  it('lets exactly one of two concurrent rotations win', async () => {
    const token = aRefreshToken();
    await store().insertRefreshToken(token);

    const results = await Promise.all([
      store().markRefreshTokenRotated(token.tokenHash, at(10)),
      store().markRefreshTokenRotated(token.tokenHash, at(11)),
    ]);

    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('lets exactly one of two concurrent transactions that both read the token rotate it', async () => {
    const token = aRefreshToken();
    await store().insertRefreshToken(token);

    const rotate = (now: Date) =>
      context().transactor.inTransaction(async (stores) => {
        const found = await stores.refreshTokens.findRefreshToken(token.tokenHash);
        if (!found || found.rotatedAt) return false;
        return stores.refreshTokens.markRefreshTokenRotated(token.tokenHash, now);
      });
    const results = await Promise.all([rotate(at(10)), rotate(at(11))]);

    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('revokes a whole family, counting the tokens that were still live', async () => {
    const grantId = 'grant-family';
    const rotated = [
      aRefreshToken({ grantId, rotatedAt: at(1) }),
      aRefreshToken({ grantId, rotatedAt: at(2) }),
    ];
    const live = aRefreshToken({ grantId });
    const otherFamily = aRefreshToken({ clientId: live.clientId });
    for (const token of [...rotated, live, otherFamily]) await store().insertRefreshToken(token);

    await expect(store().revokeRefreshTokenFamily(grantId, at(100))).resolves.toBe(1);

    for (const token of [...rotated, live]) {
      await expect(store().findRefreshToken(token.tokenHash)).resolves.toEqual({
        ...token,
        revokedAt: at(100),
      });
    }
    await expect(store().findRefreshToken(otherFamily.tokenHash)).resolves.toEqual(otherFamily);
  });

  it('keeps the first revocation time when a family is revoked twice', async () => {
    const token = aRefreshToken();
    await store().insertRefreshToken(token);
    await store().revokeRefreshTokenFamily(token.grantId, at(100));

    await expect(store().revokeRefreshTokenFamily(token.grantId, at(200))).resolves.toBe(0);
    await expect(store().findRefreshToken(token.tokenHash)).resolves.toEqual({
      ...token,
      revokedAt: at(100),
    });
  });

  it('revokes every token of a client and no other', async () => {
    const mine = [aRefreshToken({ clientId: 'app-mine' }), aRefreshToken({ clientId: 'app-mine' })];
    const theirs = aRefreshToken({ clientId: 'app-theirs' });
    for (const token of [...mine, theirs]) await store().insertRefreshToken(token);

    await expect(store().revokeRefreshTokensOfClient('app-mine', at(100))).resolves.toBe(2);

    for (const token of mine) {
      await expect(store().findRefreshToken(token.tokenHash)).resolves.toEqual({
        ...token,
        revokedAt: at(100),
      });
    }
    await expect(store().findRefreshToken(theirs.tokenHash)).resolves.toEqual(theirs);
  });

  it('revokes every token of a user, across clients and grants, and no other', async () => {
    const mine = [
      aRefreshToken({ userId: 'user-gone' }),
      aRefreshToken({ userId: 'user-gone', clientId: 'app-2' }),
    ];
    const theirs = aRefreshToken({ userId: 'user-staying' });
    for (const token of [...mine, theirs]) await store().insertRefreshToken(token);

    await expect(store().revokeRefreshTokensOfUser('user-gone', at(100))).resolves.toBe(2);

    for (const token of mine) {
      await expect(store().findRefreshToken(token.tokenHash)).resolves.toEqual({
        ...token,
        revokedAt: at(100),
      });
    }
    await expect(store().findRefreshToken(theirs.tokenHash)).resolves.toEqual(theirs);
  });
};
