import { AssertionReplays, assertionKey, type FederatedIssuer } from '@platform/domain';
import type { Contract } from '../support/contract';
import { at, T0, uniqueId } from '../support/factories';

export function aFederatedIssuer(overrides: Partial<FederatedIssuer> = {}): FederatedIssuer {
  return {
    id: uniqueId('fi'),
    tenant: 'acme',
    issuer: `https://${uniqueId('issuer')}.example`,
    jwksUri: null,
    rules: [
      {
        name: 'ledger-pods',
        audience: 'https://platform.example',
        claims: { '/kubernetes.io/namespace': 'payments' },
        clientId: 'ledger',
        scopes: ['jobs.read'],
      },
    ],
    createdAt: T0,
    updatedAt: T0,
    ...overrides,
  };
}

/** The used assertions (private_key_jwt `jti`, workload tokens), shared by every replica. */
export const assertionReplayStoreContract: Contract = (context) => {
  const store = () => context().stores.assertionReplays;

  it('remembers a key once: a second insert, in another transaction, is not new', async () => {
    const key = assertionKey('client_assertion', 'ledger', uniqueId('jti'));
    await expect(
      context().transactor.inTransaction((stores) =>
        stores.assertionReplays.rememberAssertions([{ key, expiresAt: at(60_000) }]),
      ),
    ).resolves.toEqual([key]);
    await expect(
      context().transactor.inTransaction((stores) =>
        stores.assertionReplays.rememberAssertions([{ key, expiresAt: at(60_000) }]),
      ),
    ).resolves.toEqual([]);
  });

  it('answers the new keys of a batch holding known ones', async () => {
    const known = uniqueId('known');
    await store().rememberAssertions([{ key: known, expiresAt: at(60_000) }]);
    const fresh = [uniqueId('a'), uniqueId('b')];
    const answered = await store().rememberAssertions([
      { key: fresh[0], expiresAt: at(60_000) },
      { key: known, expiresAt: at(60_000) },
      { key: fresh[1], expiresAt: at(60_000) },
    ]);
    expect([...answered].sort()).toEqual([...fresh].sort());
  });

  it('lets exactly one of two replicas accept a jti presented to both at once', async () => {
    // Two replicas: two AssertionReplays, each grouping its own uses, one table.
    const replicas = [new AssertionReplays(store()), new AssertionReplays(store())];
    const key = assertionKey('client_assertion', 'ledger', uniqueId('jti'));
    const outcomes = await Promise.all(replicas.map((replica) => replica.firstUse(key, at(60_000))));
    expect(outcomes.sort()).toEqual([false, true]);
  });

  it('prunes the uses that expired, in batches, and keeps the others', async () => {
    const expired = Array.from({ length: 3 }, () => ({ key: uniqueId('old'), expiresAt: at(-1) }));
    const live = { key: uniqueId('live'), expiresAt: at(1) };
    await store().rememberAssertions([...expired, live]);

    await expect(store().pruneAssertions(T0, 2)).resolves.toBe(2);
    await expect(store().pruneAssertions(T0, 2)).resolves.toBe(1);
    await expect(store().pruneAssertions(T0, 2)).resolves.toBe(0);
    // The live one is still remembered; an expired one may be used again (its exp refuses it anyway).
    await expect(store().rememberAssertions([live])).resolves.toEqual([]);
    await expect(store().rememberAssertions([expired[0]])).resolves.toEqual([expired[0].key]);
  });
};

/** A tenant's trusted workload issuers. */
export const federatedIssuerStoreContract: Contract = (context) => {
  const store = () => context().stores.federatedIssuers;

  it('stores an issuer with its rules and finds it by id within its tenant, and by issuer', async () => {
    const issuer = aFederatedIssuer({ jwksUri: 'https://keys.example/jwks.json' });
    await expect(store().insertFederatedIssuer(issuer)).resolves.toBe('created');

    await expect(store().findFederatedIssuer('acme', issuer.id)).resolves.toEqual(issuer);
    await expect(store().findFederatedIssuer('other', issuer.id)).resolves.toBeNull();
    await expect(store().findFederatedIssuersByIssuer(issuer.issuer)).resolves.toEqual([issuer]);
    await expect(store().findFederatedIssuersByIssuer('https://nobody.example')).resolves.toEqual([]);
  });

  it('trusts an issuer once per tenant, and in several tenants', async () => {
    const issuer = aFederatedIssuer();
    await store().insertFederatedIssuer(issuer);
    await expect(store().insertFederatedIssuer({ ...issuer, id: uniqueId('fi') })).resolves.toBe('duplicate');
    await expect(
      store().insertFederatedIssuer({ ...issuer, id: uniqueId('fi'), tenant: 'globex' }),
    ).resolves.toBe('created');
    await expect(store().findFederatedIssuersByIssuer(issuer.issuer)).resolves.toHaveLength(2);
  });

  it('lists a tenant’s issuers by issuer, none of another tenant', async () => {
    const second = aFederatedIssuer({ issuer: 'https://b.example' });
    const first = aFederatedIssuer({ issuer: 'https://a.example' });
    await store().insertFederatedIssuer(second);
    await store().insertFederatedIssuer(first);
    await store().insertFederatedIssuer(aFederatedIssuer({ tenant: 'globex' }));

    await expect(store().listFederatedIssuers('acme')).resolves.toEqual([first, second]);
  });

  it('replaces the rules and the key location; deletes within the tenant only', async () => {
    const issuer = aFederatedIssuer();
    await store().insertFederatedIssuer(issuer);
    const changed: FederatedIssuer = {
      ...issuer,
      jwksUri: 'https://keys.example/jwks.json',
      rules: [{ ...issuer.rules[0], name: 'renamed', subject: 'system:serviceaccount:payments:ledger' }],
      updatedAt: at(1_000),
    };
    await expect(store().updateFederatedIssuer(changed)).resolves.toBe(true);
    await expect(store().findFederatedIssuer('acme', issuer.id)).resolves.toEqual(changed);
    await expect(store().updateFederatedIssuer({ ...changed, tenant: 'globex' })).resolves.toBe(false);

    await expect(store().deleteFederatedIssuer('globex', issuer.id)).resolves.toBe(false);
    await expect(store().deleteFederatedIssuer('acme', issuer.id)).resolves.toBe(true);
    await expect(store().findFederatedIssuer('acme', issuer.id)).resolves.toBeNull();
  });
};
