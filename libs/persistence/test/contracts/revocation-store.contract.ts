import type { Contract } from '../support/contract';
import { followWhileWriting } from '../support/feed-follower';
import { aRevocation, at, T0 } from '../support/factories';

export const revocationStoreContract: Contract = (context) => {
  const store = () => context().stores.revocations;

  it('assigns ascending sequence numbers in the order given', async () => {
    const entries = [aRevocation(), aRevocation({ kind: 'client' }), aRevocation({ kind: 'grant' })];

    const added = await store().addRevocations(entries, T0);

    expect(added).toEqual(entries.map((entry) => ({ ...entry, seq: expect.any(Number), createdAt: T0 })));
    const seqs = added.map((entry) => entry.seq);
    expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);
    expect(new Set(seqs).size).toBe(3);
  });

  it('keeps numbering upward across batches', async () => {
    const [first] = await store().addRevocations([aRevocation()], T0);
    const [second] = await store().addRevocations([aRevocation()], T0);

    expect(second.seq).toBeGreaterThan(first.seq);
  });

  it('adds nothing for an empty batch', async () => {
    await expect(store().addRevocations([], T0)).resolves.toEqual([]);
    await expect(store().listRevocationsAfter(0, 10)).resolves.toEqual([]);
  });

  it('lists entries after a sequence number, ascending, at most limit', async () => {
    const added = await store().addRevocations(
      [aRevocation(), aRevocation(), aRevocation(), aRevocation()],
      T0,
    );

    await expect(store().listRevocationsAfter(added[0].seq, 2)).resolves.toEqual(added.slice(1, 3));
    await expect(store().listRevocationsAfter(added[3].seq, 10)).resolves.toEqual([]);
  });

  it('answers the highest seq the feed holds, 0 when empty', async () => {
    await expect(store().lastRevocationSeq()).resolves.toBe(0);
    const added = await store().addRevocations([aRevocation(), aRevocation()], T0);

    await expect(store().lastRevocationSeq()).resolves.toBe(added[1].seq);
  });

  it('lists expired entries in the feed too', async () => {
    const [expired] = await store().addRevocations([aRevocation({ expiresAt: at(-1) })], T0);

    await expect(store().listRevocationsAfter(0, 10)).resolves.toEqual([expired]);
  });

  it('lists only entries that have not expired as active', async () => {
    const [, live, later] = await store().addRevocations(
      [
        aRevocation({ expiresAt: at(0) }),
        aRevocation({ expiresAt: at(1) }),
        aRevocation({ expiresAt: at(9_000) }),
      ],
      at(-10),
    );

    await expect(store().listActiveRevocations(T0)).resolves.toEqual([live, later]);
  });

  it('finds active entries matching any of the given keys, and only of the same kind', async () => {
    const [jti, client] = await store().addRevocations(
      [
        aRevocation({ kind: 'jti', value: 'token-1' }),
        aRevocation({ kind: 'client', value: 'app-1' }),
        aRevocation({ kind: 'grant', value: 'grant-1' }),
        aRevocation({ kind: 'jti', value: 'token-2', expiresAt: at(-1) }),
      ],
      T0,
    );

    const found = await store().findActiveRevocations(
      [
        { kind: 'jti', value: 'token-1' },
        { kind: 'client', value: 'app-1' },
        { kind: 'jti', value: 'grant-1' },
        { kind: 'jti', value: 'token-2' },
      ],
      T0,
    );

    expect(found).toEqual([jti, client]);
  });

  it('finds nothing for an empty key list', async () => {
    await store().addRevocations([aRevocation()], T0);

    await expect(store().findActiveRevocations([], T0)).resolves.toEqual([]);
  });

  it('prunes expired entries and reports how many', async () => {
    const [, kept] = await store().addRevocations(
      [aRevocation({ expiresAt: at(-5) }), aRevocation({ expiresAt: at(5) }), aRevocation({ expiresAt: T0 })],
      at(-10),
    );

    await expect(store().pruneRevocations(T0, 100)).resolves.toBe(2);
    await expect(store().listRevocationsAfter(0, 10)).resolves.toEqual([kept]);
  });

  it('prunes at most the batch it is given, the rest at the next call', async () => {
    await store().addRevocations(
      [
        aRevocation({ expiresAt: at(-3) }),
        aRevocation({ expiresAt: at(-2) }),
        aRevocation({ expiresAt: at(-1) }),
      ],
      at(-10),
    );

    await expect(store().pruneRevocations(T0, 2)).resolves.toBe(2);
    await expect(store().pruneRevocations(T0, 2)).resolves.toBe(1);
    await expect(store().listRevocationsAfter(0, 10)).resolves.toEqual([]);
  });

  it('lets a reader following the cursor see every entry, however late each writer commits', async () => {
    const { written, seen } = await followWhileWriting(
      context().transactor,
      async (stores) => (await stores.revocations.addRevocations([aRevocation()], T0))[0].seq,
      (seq) => store().listRevocationsAfter(seq, 100),
    );

    expect(seen).toEqual(written);
  });

  it('never reuses the sequence number of a pruned newest entry', async () => {
    const [pruned] = await store().addRevocations([aRevocation({ expiresAt: at(-1) })], T0);
    await store().pruneRevocations(T0, 100);

    const [next] = await store().addRevocations([aRevocation()], T0);

    expect(next.seq).toBeGreaterThan(pruned.seq);
  });
};
