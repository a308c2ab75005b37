import { randomBytes } from 'node:crypto';
import { AuditTrail } from '../audit/audit-trail';
import { systemClock } from '../clock';
import { QuotaExhaustedError } from '../errors';
import type { UsageMeter } from '../plans/usage-meter';
import { InMemoryStores, InMemoryTransactor } from '../testing/in-memory-stores';
import type { ActingPrincipal } from '../users/user-administration';
import { Envelope } from './envelope';
import { parseSecretReference } from './secret';
import { SecretVault } from './secret-vault';

const user = (tenant: string, roles: string[] = []): ActingPrincipal => ({
  kind: 'user',
  id: `user-of-${tenant}`,
  clientId: 'portal',
  tenant,
  roles,
  scopes: ['secrets.read', 'secrets.write'],
});

function setup(meter?: UsageMeter) {
  const stores = new InMemoryStores();
  const transactor = new InMemoryTransactor(stores);
  const vault = new SecretVault(
    new Envelope(randomBytes(32)),
    stores.secrets,
    transactor,
    new AuditTrail(systemClock),
    (event) => transactor.inTransaction(async (s) => (await s.audit.appendAuditRecords([event]))[0]),
    systemClock,
    meter,
  );
  return { stores, vault };
}

describe('SecretVault', () => {
  const alice = user('acme');

  it('answers the current version or a named one', async () => {
    const { vault } = setup();
    await vault.put(alice, 'acme', 'db', 'one');
    await vault.put(alice, 'acme', 'db', 'two');

    await expect(vault.read(alice, 'acme', 'db')).resolves.toMatchObject({ version: 2, value: 'two' });
    await expect(vault.read(alice, 'acme', 'db', 1)).resolves.toMatchObject({ version: 1, value: 'one' });
    await expect(vault.read(alice, 'acme', 'db', 3)).rejects.toMatchObject({ code: 'not_found' });
    await expect(vault.read(alice, 'acme', 'nope')).rejects.toMatchObject({ code: 'not_found' });
  });

  it('refuses a check-and-set against another version, and cas 0 once the secret exists', async () => {
    const { vault } = setup();
    await vault.put(alice, 'acme', 'db', 'one', 0);

    await expect(vault.put(alice, 'acme', 'db', 'two', 0)).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringContaining('the current version of db is 1, not 0'),
    });
    await expect(vault.put(alice, 'acme', 'db', 'two', 1)).resolves.toMatchObject({ version: 2 });
  });

  it('counts each value stored against secrets_stored, gives back a refused write, stores nothing past the quota', async () => {
    let used = 0;
    const meter: UsageMeter = {
      async take(tenant, name) {
        expect([tenant, name]).toEqual(['acme', 'secrets_stored']);
        if (used === 2) throw new QuotaExhaustedError('the secrets_stored quota is used up', 60);
        used += 1;
        return async () => {
          used -= 1;
        };
      },
    };
    const { vault } = setup(meter);
    await vault.put(alice, 'acme', 'db', 'one', 0);
    await expect(vault.put(alice, 'acme', 'db', 'again', 0)).rejects.toMatchObject({ code: 'conflict' });
    expect(used).toBe(1);
    await expect(vault.put(alice, 'acme', 'db', 'x'.repeat(40_000))).rejects.toMatchObject({
      code: 'validation_failed',
    });
    expect(used).toBe(1);
    await vault.put(alice, 'acme', 'db', 'two');
    await expect(vault.put(alice, 'acme', 'api', 'three')).rejects.toBeInstanceOf(QuotaExhaustedError);
    await expect(vault.read(alice, 'acme', 'api')).rejects.toMatchObject({ code: 'not_found' });
    expect(used).toBe(2);
  });

  it('hides a deleted version until it is undeleted, and a destroyed one for good', async () => {
    const { vault, stores } = setup();
    await vault.put(alice, 'acme', 'db', 'one');

    await vault.changeVersion(alice, 'acme', 'db', 1, 'deleted');
    await expect(vault.read(alice, 'acme', 'db')).rejects.toThrow(
      'version 1 of secret db (deleted) not found',
    );
    await vault.changeVersion(alice, 'acme', 'db', 1, 'undeleted');
    await expect(vault.read(alice, 'acme', 'db')).resolves.toMatchObject({ value: 'one' });

    await vault.changeVersion(alice, 'acme', 'db', 1, 'destroyed');
    await expect(vault.read(alice, 'acme', 'db', 1)).rejects.toThrow('(destroyed)');
    await expect(vault.changeVersion(alice, 'acme', 'db', 1, 'undeleted')).rejects.toMatchObject({
      code: 'conflict',
    });
    expect((await stores.secrets.findSecretVersion('acme', 'db', 1))?.sealed).toBeNull();
    await expect(vault.changeVersion(alice, 'acme', 'db', 7, 'deleted')).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it('keeps a user to its own tenant; a global admin crosses', async () => {
    const { vault } = setup();
    await vault.put(alice, 'acme', 'db', 'one');

    await expect(vault.read(user('globex'), 'acme', 'db')).rejects.toMatchObject({ code: 'forbidden' });
    await expect(vault.put(user('globex'), 'acme', 'db', 'x')).rejects.toMatchObject({ code: 'forbidden' });
    await expect(vault.read(user('globex', ['global_admin']), 'acme', 'db')).resolves.toMatchObject({
      value: 'one',
    });
  });

  it('audits writes and reads with who and which version, never the value', async () => {
    const { vault, stores } = setup();
    await vault.put(alice, 'acme', 'db', 'sup3r-s3cret');
    await vault.read(alice, 'acme', 'db');
    await vault.delete(alice, 'acme', 'db');

    const records = await stores.audit.listAuditRecords({ tenant: 'acme', limit: 10 });
    expect(records.map((r) => [r.action, r.actorId, r.target, r.attributes])).toEqual([
      ['secret.written', 'user-of-acme', 'db', { version: 1 }],
      ['secret.read', 'user-of-acme', 'db', { version: 1 }],
      ['secret.deleted', 'user-of-acme', 'db', {}],
    ]);
    expect(JSON.stringify(records)).not.toContain('sup3r-s3cret');
    await expect(vault.metadata(alice, 'acme', 'db')).rejects.toMatchObject({ code: 'not_found' });
  });

  it('describes versions without their values', async () => {
    const { vault } = setup();
    await vault.put(alice, 'acme', 'db', 'one');
    await vault.put(alice, 'acme', 'db', 'two');
    await vault.changeVersion(alice, 'acme', 'db', 1, 'deleted');

    const metadata = await vault.metadata(alice, 'acme', 'db');
    expect(metadata).toMatchObject({
      currentVersion: 2,
      versions: [{ version: 1 }, { version: 2, deletedAt: null }],
    });
    expect(metadata.versions[0].deletedAt).not.toBeNull();
    expect(JSON.stringify(metadata)).not.toMatch(/one|two/);
  });

  it('refuses bad names and oversized values', async () => {
    const { vault } = setup();
    await expect(vault.put(alice, 'acme', 'a/b', 'v')).rejects.toMatchObject({ code: 'validation_failed' });
    await expect(vault.put(alice, 'acme', 'db', 'x'.repeat(32_769))).rejects.toMatchObject({
      code: 'validation_failed',
    });
  });
});

describe('parseSecretReference', () => {
  it.each([
    ['secret://acme/db', { tenant: 'acme', name: 'db' }],
    ['secret://acme/db#3', { tenant: 'acme', name: 'db', version: 3 }],
  ])('reads %s', (reference, expected) => {
    expect(parseSecretReference(reference)).toEqual(expected);
  });

  it.each(['acme/db', 'secret://acme', 'secret://acme/db#0', 'secret://acme/db#x', 'secret://acme/a/b'])(
    'refuses %s',
    (reference) => {
      expect(() => parseSecretReference(reference)).toThrow('secret://<tenant>/<name>');
    },
  );
});
