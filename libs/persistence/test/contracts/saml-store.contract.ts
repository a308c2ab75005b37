import type { SamlIdentityProvider, SamlRequestRecord } from '@platform/domain';
import type { Contract } from '../support/contract';
import { at, T0, uniqueId } from '../support/factories';

export function aSamlIdentityProvider(overrides: Partial<SamlIdentityProvider> = {}): SamlIdentityProvider {
  return {
    tenant: uniqueId('tenant'),
    entityId: `https://${uniqueId('idp')}.example/saml`,
    ssoUrl: 'https://idp.example/sso',
    certificates: ['MIIBcert1', 'MIIBcert2'],
    attributeMapping: { email: ['email', 'mail'], name: ['displayName'], groups: ['groups'] },
    roleMapping: { admins: 'tenant_admin', readers: 'viewer' },
    wantResponseSigned: false,
    nameIdFormat: null,
    createdAt: T0,
    updatedAt: T0,
    ...overrides,
  };
}

export function aSamlRequest(overrides: Partial<SamlRequestRecord> = {}): SamlRequestRecord {
  return { id: uniqueId('_req'), tenant: 'acme', createdAt: T0, expiresAt: at(600_000), ...overrides };
}

/** A tenant's SAML identity provider: one per tenant, replaced whole. */
export const samlIdentityProviderStoreContract: Contract = (context) => {
  const store = () => context().stores.samlIdentityProviders;

  it('stores a registration as given, and replaces it whole', async () => {
    const idp = aSamlIdentityProvider();
    await expect(store().upsertSamlIdentityProvider(idp)).resolves.toBe('created');
    await expect(store().findSamlIdentityProvider(idp.tenant)).resolves.toEqual(idp);

    const replaced = {
      ...idp,
      certificates: ['MIIBcert3'],
      roleMapping: {},
      wantResponseSigned: true,
      nameIdFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
      updatedAt: at(1_000),
    };
    await expect(store().upsertSamlIdentityProvider(replaced)).resolves.toBe('updated');
    await expect(store().findSamlIdentityProvider(idp.tenant)).resolves.toEqual(replaced);
  });

  it('keeps tenants apart, even two registering one entity id', async () => {
    const acme = aSamlIdentityProvider({ tenant: 'acme' });
    const globex = aSamlIdentityProvider({
      tenant: 'globex',
      entityId: acme.entityId,
      certificates: ['other'],
    });
    await store().upsertSamlIdentityProvider(acme);
    await store().upsertSamlIdentityProvider(globex);
    await expect(store().findSamlIdentityProvider('acme')).resolves.toEqual(acme);
    await expect(store().findSamlIdentityProvider('globex')).resolves.toEqual(globex);
    await expect(store().findSamlIdentityProvider('initech')).resolves.toBeNull();
  });

  it('deletes a registration once', async () => {
    const idp = aSamlIdentityProvider();
    await store().upsertSamlIdentityProvider(idp);
    await expect(store().deleteSamlIdentityProvider(idp.tenant)).resolves.toBe(true);
    await expect(store().deleteSamlIdentityProvider(idp.tenant)).resolves.toBe(false);
    await expect(store().findSamlIdentityProvider(idp.tenant)).resolves.toBeNull();
  });
};

/** The AuthnRequests sent: each answered once, by its tenant, before it expires. */
export const samlRequestStoreContract: Contract = (context) => {
  const store = () => context().stores.samlRequests;

  it('consumes a request once, in its tenant, before its expiry', async () => {
    const request = aSamlRequest();
    await store().insertSamlRequest(request);
    await expect(store().consumeSamlRequest(request.id, 'globex', T0)).resolves.toBe(false);
    await expect(store().consumeSamlRequest(request.id, 'acme', T0)).resolves.toBe(true);
    await expect(store().consumeSamlRequest(request.id, 'acme', T0)).resolves.toBe(false);
  });

  it('refuses an expired request, and an unknown one', async () => {
    const request = aSamlRequest({ expiresAt: at(1_000) });
    await store().insertSamlRequest(request);
    await expect(store().consumeSamlRequest(request.id, 'acme', at(1_000))).resolves.toBe(false);
    await expect(store().consumeSamlRequest('_unknown', 'acme', T0)).resolves.toBe(false);
  });

  it('lets one of two transactions racing for a request have it', async () => {
    const request = aSamlRequest();
    await store().insertSamlRequest(request);
    const race = () =>
      context().transactor.inTransaction((stores) =>
        stores.samlRequests.consumeSamlRequest(request.id, 'acme', T0),
      );
    const outcomes = await Promise.all([race(), race()]);
    expect(outcomes.filter(Boolean)).toHaveLength(1);
  });

  it('prunes expired requests in batches, keeping live ones', async () => {
    const live = aSamlRequest({ expiresAt: at(60_000) });
    const expired = [1, 2, 3].map(() => aSamlRequest({ expiresAt: at(-1) }));
    for (const request of [live, ...expired]) await store().insertSamlRequest(request);
    await expect(store().pruneSamlRequests(T0, 2)).resolves.toBe(2);
    await expect(store().pruneSamlRequests(T0, 2)).resolves.toBe(1);
    await expect(store().pruneSamlRequests(T0, 2)).resolves.toBe(0);
    await expect(store().consumeSamlRequest(live.id, 'acme', T0)).resolves.toBe(true);
  });
};
