import type { Contract } from '../support/contract';
import { followWhileWriting } from '../support/feed-follower';
import { at, T0, uniqueId } from '../support/factories';

export const definitionStoreContract: Contract = (context) => {
  const store = () => context().stores.definitions;
  const rules = (rpu: number) => ({
    descriptors: [{ key: 'remote_address', rate_limit: { unit: 'second', requests_per_unit: rpu } }],
  });

  it('writes a definition, a new version each time, each with a higher seq', async () => {
    const tenant = uniqueId('tenant');
    const first = await store().putDefinition(
      { kind: 'rate_limits', tenant, name: 'checkout', document: rules(10) },
      T0,
    );
    const second = await store().putDefinition(
      { kind: 'rate_limits', tenant, name: 'checkout', document: rules(20) },
      at(5),
    );

    expect(first).toMatchObject({ version: 1, document: rules(10), updatedAt: T0 });
    expect(second).toMatchObject({ version: 2, document: rules(20), updatedAt: at(5) });
    expect(second.seq).toBeGreaterThan(first.seq);
    await expect(store().findDefinition('rate_limits', tenant, 'checkout')).resolves.toEqual(second);
  });

  it('lists the live definitions of one tenant, by name', async () => {
    const tenant = uniqueId('tenant');
    await store().putDefinition({ kind: 'rate_limits', tenant, name: 'search', document: rules(1) }, T0);
    await store().putDefinition({ kind: 'rate_limits', tenant, name: 'api', document: rules(2) }, T0);
    await store().putDefinition(
      { kind: 'rate_limits', tenant: uniqueId('other'), name: 'api', document: rules(3) },
      T0,
    );

    const listed = await store().listDefinitions('rate_limits', tenant);
    expect(listed.map((d) => d.name)).toEqual(['api', 'search']);
  });

  it('lists definition names by code point on every database, whatever its collation', async () => {
    const tenant = uniqueId('tenant');
    for (const name of ['b', 'a_b', 'B', 'a-b', 'A'])
      await store().putDefinition({ kind: 'rate_limits', tenant, name, document: rules(1) }, T0);

    const listed = await store().listDefinitions('rate_limits', tenant);
    expect(listed.map((d) => d.name)).toEqual(['A', 'B', 'a-b', 'a_b', 'b']);
  });

  it('gives a JSON document back exactly: key order, numbers, escapes and depth', async () => {
    let nested: Record<string, unknown> = { bottom: true };
    for (let depth = 0; depth < 64; depth += 1) nested = { [`level${depth}`]: nested };
    const document = {
      zebra: 1,
      apple: { z: [3, 2, 1], a: null },
      '10': 'numeric-looking key',
      '2': 'sorts before "10" as a JSON object key',
      numbers: [1.0, 1e21, 1e-7, 0.1, 2 ** 53 + 2, -1.5e300, 123456789012345680000],
      text: ['\u0000 in JSON text', 'é \u2028 \u{1F600} \ud83d\ude00', '"quoted" \\ back\\slash', '\ud800'],
      nested,
    };
    const tenant = uniqueId('tenant');
    await store().putDefinition({ kind: 'rate_limits', tenant, name: 'json', document }, T0);

    const found = await store().findDefinition('rate_limits', tenant, 'json');
    expect(JSON.stringify(found?.document)).toBe(JSON.stringify(document));
  });

  it('deletes with a tombstone the feed carries, and lists the feed after a seq in order', async () => {
    const tenant = uniqueId('tenant');
    const written = await store().putDefinition(
      { kind: 'rate_limits', tenant, name: 'gone', document: rules(1) },
      T0,
    );
    const deleted = await store().putDefinition(
      { kind: 'rate_limits', tenant, name: 'gone', document: null },
      at(1),
    );

    await expect(store().findDefinition('rate_limits', tenant, 'gone')).resolves.toBeNull();
    await expect(store().listDefinitions('rate_limits', tenant)).resolves.toEqual([]);
    const feed = await store().listDefinitionsAfter(written.seq - 1, 100);
    expect(feed.filter((d) => d.tenant === tenant)).toEqual([deleted]);
    expect(feed.map((d) => d.seq)).toEqual([...feed.map((d) => d.seq)].sort((a, b) => a - b));
  });

  it('hands out distinct seqs to concurrent writers', async () => {
    const tenant = uniqueId('tenant');
    const written = await Promise.all(
      ['a', 'b', 'c', 'd'].map((name) =>
        store().putDefinition({ kind: 'rate_limits', tenant, name, document: rules(1) }, T0),
      ),
    );
    expect(new Set(written.map((d) => d.seq)).size).toBe(4);
  });

  it('lets a reader following the cursor see every change, however late each writer commits', async () => {
    const tenant = uniqueId('tenant');
    const { written, seen } = await followWhileWriting(
      context().transactor,
      async (stores) => {
        const definition = {
          kind: 'rate_limits' as const,
          tenant,
          name: uniqueId('limits'),
          document: rules(1),
        };
        return (await stores.definitions.putDefinition(definition, T0)).seq;
      },
      (seq) => store().listDefinitionsAfter(seq, 100),
    );

    expect(seen).toEqual(written);
  });
};
