import type { Contract } from '../support/contract';
import { aSigningKey, at } from '../support/factories';

export const signingKeyStoreContract: Contract = (context) => {
  const store = () => context().stores.signingKeys;

  it('lists keys newest first, with every field intact', async () => {
    const oldest = aSigningKey({ createdAt: at(0) });
    const newest = aSigningKey({ createdAt: at(2_000) });
    const middle = aSigningKey({ createdAt: at(1_000), retiredAt: at(2_000) });
    for (const key of [oldest, newest, middle]) await store().insertSigningKey(key);

    await expect(store().listSigningKeys()).resolves.toEqual([newest, middle, oldest]);
  });

  it('breaks a tie of creation times by kid, descending, not by insertion', async () => {
    const keys = ['kid-b', 'kid-c', 'kid-a'].map((kid) => aSigningKey({ kid, createdAt: at(0) }));
    for (const key of keys) await store().insertSigningKey(key);

    const listed = await store().listSigningKeys();
    expect(listed.map((k) => k.kid)).toEqual(['kid-c', 'kid-b', 'kid-a']);
  });

  it('keeps times to the millisecond, both ends of a second and far from 1970', async () => {
    const key = aSigningKey({
      createdAt: new Date('2025-03-01T12:00:00.999Z'),
      retiredAt: new Date('2286-11-20T17:46:40.001Z'),
    });
    await store().insertSigningKey(key);

    const [found] = await store().listSigningKeys();
    expect([found.createdAt.toISOString(), found.retiredAt?.toISOString()]).toEqual([
      '2025-03-01T12:00:00.999Z',
      '2286-11-20T17:46:40.001Z',
    ]);
  });

  it('retires a key and keeps it listed', async () => {
    const key = aSigningKey();
    await store().insertSigningKey(key);

    await store().retireSigningKey(key.kid, at(60_000));

    await expect(store().listSigningKeys()).resolves.toEqual([{ ...key, retiredAt: at(60_000) }]);
  });

  it('deletes a key and leaves the others', async () => {
    const kept = aSigningKey({ createdAt: at(0) });
    const deleted = aSigningKey({ createdAt: at(1) });
    await store().insertSigningKey(kept);
    await store().insertSigningKey(deleted);

    await store().deleteSigningKey(deleted.kid);

    await expect(store().listSigningKeys()).resolves.toEqual([kept]);
  });

  it('replaces the stored private key of one key only', async () => {
    const [one, other] = [aSigningKey({ createdAt: at(0) }), aSigningKey({ createdAt: at(1) })];
    await store().insertSigningKey(one);
    await store().insertSigningKey(other);

    await store().replacePrivateJwk(one.kid, '{"sealed":{}}');

    await expect(store().listSigningKeys()).resolves.toEqual([
      other,
      { ...one, privateJwk: '{"sealed":{}}' },
    ]);
  });

  it('lists nothing before the first key', async () => {
    await expect(store().listSigningKeys()).resolves.toEqual([]);
  });
};
