import { randomBytes } from 'node:crypto';
import {
  AuditTrail,
  Envelope,
  type ActingPrincipal,
  type SecretVersion,
  SecretVault,
  systemClock,
} from '@platform/domain';
import type { Contract } from '../support/contract';
import { at, T0, uniqueId } from '../support/factories';

const sealed = (kekId = 'kek-a') => ({
  ciphertext: randomBytes(40).toString('base64url'),
  wrappedKey: 'w',
  kekId,
});
const aVersion = (tenant: string, name: string, version: number, kekId?: string): SecretVersion => ({
  tenant,
  name,
  version,
  sealed: sealed(kekId),
  createdAt: at(version),
  deletedAt: null,
  destroyed: false,
});

/** SQLite's order (and the C collation's): an en_US database would put 'a' before 'A' and '_' before '-'. */
const BY_CODE_POINT = ['A', 'B', 'a', 'a-b', 'a.b', 'a_b', 'b'];

export const secretStoreContract: Contract = (context) => {
  const store = () => context().stores.secrets;

  it('keeps versions apart and answers the latest', async () => {
    const tenant = uniqueId('tenant');
    const [v1, v2] = [aVersion(tenant, 'db', 1), aVersion(tenant, 'db', 2)];
    expect(await store().insertSecretVersion(v1)).toBe(true);
    expect(await store().insertSecretVersion(v2)).toBe(true);

    await expect(store().findSecretVersion(tenant, 'db', 1)).resolves.toEqual(v1);
    await expect(store().latestSecretVersion(tenant, 'db')).resolves.toEqual(v2);
    await expect(store().listSecretVersions(tenant, 'db')).resolves.toEqual([v1, v2]);
    await expect(store().latestSecretVersion(uniqueId('other'), 'db')).resolves.toBeNull();
  });

  it('refuses a second write of the same version (the check-and-set race)', async () => {
    const tenant = uniqueId('tenant');
    const results = await Promise.all(
      [1, 2, 3].map(() => store().insertSecretVersion(aVersion(tenant, 'db', 1))),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('lists the names of one tenant, ordered and paged', async () => {
    const tenant = uniqueId('tenant');
    for (const name of ['c', 'a', 'b']) await store().insertSecretVersion(aVersion(tenant, name, 1));
    await store().insertSecretVersion(aVersion(tenant, 'a', 2));
    await store().insertSecretVersion(aVersion(uniqueId('other'), 'z', 1));

    await expect(store().listSecretNames(tenant, '', 10)).resolves.toEqual(['a', 'b', 'c']);
    await expect(store().listSecretNames(tenant, 'a', 1)).resolves.toEqual(['b']);
  });

  it('soft-deletes, undeletes and destroys versions; destroying drops the value', async () => {
    const tenant = uniqueId('tenant');
    await store().insertSecretVersion(aVersion(tenant, 'db', 1));
    await store().insertSecretVersion(aVersion(tenant, 'db', 2));

    expect(await store().updateSecretVersions(tenant, 'db', [1, 2], { deletedAt: T0 })).toBe(2);
    expect((await store().findSecretVersion(tenant, 'db', 2))?.deletedAt).toEqual(T0);
    await store().updateSecretVersions(tenant, 'db', [2], { deletedAt: null });
    expect((await store().findSecretVersion(tenant, 'db', 2))?.deletedAt).toBeNull();
    await store().updateSecretVersions(tenant, 'db', [1], { destroyed: true });
    await expect(store().findSecretVersion(tenant, 'db', 1)).resolves.toMatchObject({
      destroyed: true,
      sealed: null,
    });
    expect(await store().updateSecretVersions(tenant, 'db', [9], { destroyed: true })).toBe(0);
  });

  it('deletes a secret with all its versions', async () => {
    const tenant = uniqueId('tenant');
    await store().insertSecretVersion(aVersion(tenant, 'db', 1));
    await store().insertSecretVersion(aVersion(tenant, 'db', 2));

    expect(await store().deleteSecret(tenant, 'db')).toBe(true);
    await expect(store().listSecretVersions(tenant, 'db')).resolves.toEqual([]);
    expect(await store().deleteSecret(tenant, 'db')).toBe(false);
  });

  it('finds the values wrapped by other keys and rewraps them', async () => {
    const tenant = uniqueId('tenant');
    await store().insertSecretVersion(aVersion(tenant, 'old', 1, 'kek-old'));
    await store().insertSecretVersion(aVersion(tenant, 'new', 1, 'kek-new'));
    await store().insertSecretVersion(aVersion(tenant, 'gone', 1, 'kek-old'));
    await store().updateSecretVersions(tenant, 'gone', [1], { destroyed: true });

    const outside = await store().listSealedOutside('kek-new', 10);
    expect(outside.map((v) => v.name)).toEqual(['old']);
    const [old] = outside;
    const moved = { ...old.sealed!, wrappedKey: 'rewrapped', kekId: 'kek-new' };
    await store().rewrapSecretVersion(tenant, 'old', 1, moved);
    await expect(store().findSecretVersion(tenant, 'old', 1)).resolves.toMatchObject({ sealed: moved });
    await expect(store().listSealedOutside('kek-new', 10)).resolves.toEqual([]);
  });

  it('orders and pages secret names by code point on every database, whatever its collation', async () => {
    const tenant = uniqueId('tenant');
    for (const name of ['b', 'a_b', 'B', 'a.b', 'a', 'a-b', 'A'])
      await store().insertSecretVersion(aVersion(tenant, name, 1));

    await expect(store().listSecretNames(tenant, '', 10)).resolves.toEqual(BY_CODE_POINT);
    await expect(store().listSecretNames(tenant, 'B', 3)).resolves.toEqual(['a', 'a-b', 'a.b']);
  });

  it('finds the values sealed outside a key in a fixed order, so pages never depend on insertion', async () => {
    const tenant = uniqueId('tenant');
    for (const [name, version] of [
      ['b', 1],
      ['a', 2],
      ['b', 2],
      ['a', 1],
    ] as const)
      await store().insertSecretVersion(aVersion(tenant, name, version, 'kek-old'));

    const page = await store().listSealedOutside('kek-new', 3);
    expect(page.map((v) => `${v.name}#${v.version}`)).toEqual(['a#1', 'a#2', 'b#1']);
  });

  describe('through the vault', () => {
    const principal: ActingPrincipal = {
      kind: 'service',
      id: 'app',
      clientId: 'app',
      tenant: null,
      roles: [],
      scopes: ['secrets.read', 'secrets.write'],
    };
    const vault = (envelope = new Envelope(randomBytes(32))) => {
      const { stores, transactor } = context();
      const trail = new AuditTrail(systemClock);
      return new SecretVault(
        envelope,
        stores.secrets,
        transactor,
        trail,
        (event) => transactor.inTransaction(async (s) => (await s.audit.appendAuditRecords([event]))[0]),
        systemClock,
      );
    };

    it('lets one of several concurrent check-and-set writers win, the rest 409, each write audited', async () => {
      const tenant = uniqueId('tenant');
      const secrets = vault();
      const outcomes = await Promise.allSettled(
        ['a', 'b', 'c', 'd'].map((value) => secrets.put(principal, tenant, 'db', value, 0)),
      );

      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
      for (const o of outcomes.filter((o) => o.status === 'rejected')) {
        expect((o as PromiseRejectedResult).reason).toMatchObject({ code: 'conflict' });
      }
      const records = await context().stores.audit.listAuditRecords({ tenant, limit: 10 });
      expect(records.map((r) => r.action)).toEqual(['secret.written']);
    });

    it('rewraps every value under a new KEK without changing one', async () => {
      const tenant = uniqueId('tenant');
      const [oldKek, newKek] = [randomBytes(32), randomBytes(32)];
      for (const name of ['a', 'b', 'c'])
        await vault(new Envelope(oldKek)).put(principal, tenant, name, `v-${name}`);

      const rotated = vault(new Envelope(newKek, [oldKek]));
      const before = await context().stores.secrets.findSecretVersion(tenant, 'a', 1);
      expect(await rotated.rewrap({ kind: 'platform', id: 'platform' })).toMatchObject({ rewrapped: 3 });
      const after = await context().stores.secrets.findSecretVersion(tenant, 'a', 1);
      expect(after?.sealed?.ciphertext).toBe(before?.sealed?.ciphertext);

      const newOnly = vault(new Envelope(newKek));
      for (const name of ['a', 'b', 'c']) {
        await expect(newOnly.read(principal, tenant, name)).resolves.toMatchObject({ value: `v-${name}` });
      }
    });
  });
};
