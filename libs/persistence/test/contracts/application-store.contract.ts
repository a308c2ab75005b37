import type { Contract } from '../support/contract';
import { anApplication, at } from '../support/factories';

export const applicationStoreContract: Contract = (context) => {
  const store = () => context().stores.applications;

  it('finds an application it stored, with every field intact', async () => {
    const app = anApplication({
      rotatedAt: at(5),
      redirectUris: ['https://a.example/cb', 'http://127.0.0.1/cb'],
      resourceUri: 'https://api.billing.example',
      exchangeAudiences: ['https://api.ledger.example', 'urn:platform:reports'],
      mayImpersonate: true,
    });

    await expect(store().insertApplication(app)).resolves.toBe('created');

    await expect(store().findApplication(app.clientId)).resolves.toEqual(app);
  });

  it('keeps a spa without a secret and without a rotation time', async () => {
    const app = anApplication({ appType: 'spa', secretHash: null, rotatedAt: null });
    await store().insertApplication(app);

    await expect(store().findApplication(app.clientId)).resolves.toEqual(app);
  });

  it('keeps how a private_key_jwt app authenticates: its method and its keys, inline or by URL', async () => {
    const inline = anApplication({
      secretHash: null,
      tokenEndpointAuthMethod: 'private_key_jwt',
      jwks: { keys: [{ kty: 'EC', crv: 'P-256', kid: 'k1', x: 'eA', y: 'eQ' }] },
    });
    const remote = anApplication({
      secretHash: null,
      tokenEndpointAuthMethod: 'private_key_jwt',
      jwksUri: 'https://worker.example/jwks.json',
    });
    await store().insertApplication(inline);
    await store().insertApplication(remote);

    await expect(store().findApplication(inline.clientId)).resolves.toEqual(inline);
    await expect(store().findApplication(remote.clientId)).resolves.toEqual(remote);

    // A rotation: one source replaces the other.
    const keys = { keys: [{ kty: 'EC', crv: 'P-256', kid: 'k2', x: 'eA', y: 'eQ' }] };
    await expect(
      store().updateApplicationExchange(remote.clientId, { jwks: keys, jwksUri: null }),
    ).resolves.toBe('updated');
    const { jwksUri: _, ...rotated } = remote;
    await expect(store().findApplication(remote.clientId)).resolves.toEqual({ ...rotated, jwks: keys });
  });

  it('answers null for an unknown client id', async () => {
    await expect(store().findApplication('no-such-app')).resolves.toBeNull();
  });

  it('finds a client id only in its exact case, on every database', async () => {
    const app = anApplication({ clientId: 'Billing-Worker' });
    await store().insertApplication(app);

    await expect(store().findApplication('billing-worker')).resolves.toBeNull();
    await expect(store().insertApplication(anApplication({ clientId: 'BILLING-WORKER' }))).resolves.not.toBe(
      'duplicate',
    );
  });

  it('reports a duplicate client id instead of throwing, keeping the first', async () => {
    const first = anApplication();
    await store().insertApplication(first);

    await expect(store().insertApplication({ ...first, name: 'Impostor' })).resolves.toBe('duplicate');
    await expect(store().findApplication(first.clientId)).resolves.toEqual(first);
  });

  it('pages through applications in client id order', async () => {
    const ids = ['app-e', 'app-a', 'app-d', 'app-b', 'app-c'];
    for (const clientId of ids) await store().insertApplication(anApplication({ clientId }));

    const first = await store().listApplications({ limit: 2 });
    const second = await store().listApplications({ after: first.nextAfter ?? undefined, limit: 2 });
    const last = await store().listApplications({ after: second.nextAfter ?? undefined, limit: 2 });

    expect(first.items.map((a) => a.clientId)).toEqual(['app-a', 'app-b']);
    expect(first.nextAfter).toBe('app-b');
    expect(second.items.map((a) => a.clientId)).toEqual(['app-c', 'app-d']);
    expect(second.nextAfter).toBe('app-d');
    expect(last.items.map((a) => a.clientId)).toEqual(['app-e']);
    expect(last.nextAfter).toBeNull();
  });

  it('offers no next page when the page is exactly full', async () => {
    for (const clientId of ['app-a', 'app-b']) await store().insertApplication(anApplication({ clientId }));

    const page = await store().listApplications({ limit: 2 });

    expect(page.items).toHaveLength(2);
    expect(page.nextAfter).toBeNull();
  });

  it('treats after as exclusive even for a client id that does not exist', async () => {
    for (const clientId of ['app-a', 'app-c']) await store().insertApplication(anApplication({ clientId }));

    const page = await store().listApplications({ after: 'app-b', limit: 10 });

    expect(page.items.map((a) => a.clientId)).toEqual(['app-c']);
  });

  it('orders client ids bytewise on every database', async () => {
    const ids = ['app_c', 'app.d', 'app-a', 'app-B', 'App-z'];
    for (const clientId of ids) await store().insertApplication(anApplication({ clientId }));

    const page = await store().listApplications({ limit: 10 });

    expect(page.items.map((a) => a.clientId)).toEqual(['App-z', 'app-B', 'app-a', 'app.d', 'app_c']);
  });

  it('deletes an application and says whether there was one', async () => {
    const app = anApplication();
    await store().insertApplication(app);

    await expect(store().deleteApplication(app.clientId)).resolves.toBe(true);
    await expect(store().findApplication(app.clientId)).resolves.toBeNull();
    await expect(store().deleteApplication(app.clientId)).resolves.toBe(false);
  });

  it('finds the apps that registered a redirect URI exactly, by client id, up to the limit', async () => {
    const shared = 'https://shared.example/cb';
    const long = `https://a.example/${'segment/'.repeat(240)}cb`;
    await store().insertApplication(anApplication({ clientId: 'app-b', redirectUris: [shared, long] }));
    await store().insertApplication(anApplication({ clientId: 'app-a', redirectUris: [shared] }));
    await store().insertApplication(anApplication({ clientId: 'app-c', redirectUris: [`${shared}/`] }));

    const byUri = async (uri: string, limit = 10) =>
      (await store().findApplicationsByRedirectUri(uri, limit)).map((app) => app.clientId);
    await expect(byUri(shared)).resolves.toEqual(['app-a', 'app-b']);
    await expect(byUri(shared, 1)).resolves.toEqual(['app-a']);
    await expect(byUri(long)).resolves.toEqual(['app-b']);
    await expect(byUri('https://shared.example/CB')).resolves.toEqual([]);
    await expect(store().findApplicationsByRedirectUri(long, 1)).resolves.toEqual([
      await store().findApplication('app-b'),
    ]);
  });

  it('forgets the redirect URIs of a deleted application', async () => {
    const app = anApplication({ redirectUris: ['https://gone.example/cb'] });
    await store().insertApplication(app);
    await store().deleteApplication(app.clientId);

    await expect(store().findApplicationsByRedirectUri('https://gone.example/cb', 2)).resolves.toEqual([]);
  });

  it('replaces the secret hash and records when it rotated', async () => {
    const app = anApplication();
    await store().insertApplication(app);

    await expect(store().updateApplicationSecret(app.clientId, 'new-hash', at(1_000))).resolves.toBe(true);

    await expect(store().findApplication(app.clientId)).resolves.toEqual({
      ...app,
      secretHash: 'new-hash',
      rotatedAt: at(1_000),
    });
  });

  it('says false when rotating the secret of an unknown application', async () => {
    await expect(store().updateApplicationSecret('no-such-app', 'hash', at(0))).resolves.toBe(false);
  });

  it('finds the app that is a resource by its exact URI', async () => {
    const app = anApplication({ resourceUri: 'https://api.billing.example/v1' });
    await store().insertApplication(app);
    await store().insertApplication(anApplication());

    await expect(store().findApplicationByResource('https://api.billing.example/v1')).resolves.toEqual(app);
    await expect(store().findApplicationByResource('https://api.billing.example/V1')).resolves.toBeNull();
    await expect(store().findApplicationByResource('https://api.billing.example')).resolves.toBeNull();
  });

  it('reports a resource URI another app holds as a duplicate at insertion', async () => {
    const first = anApplication({ resourceUri: 'urn:platform:billing' });
    await store().insertApplication(first);

    await expect(
      store().insertApplication(anApplication({ resourceUri: 'urn:platform:billing' })),
    ).resolves.toBe('duplicate');
    await expect(store().findApplicationByResource('urn:platform:billing')).resolves.toEqual(first);
  });

  it('lets any number of apps be no resource', async () => {
    await expect(store().insertApplication(anApplication({ resourceUri: null }))).resolves.toBe('created');
    await expect(store().insertApplication(anApplication({ resourceUri: null }))).resolves.toBe('created');
  });

  it('changes only the exchange fields a patch names', async () => {
    const app = anApplication({ resourceUri: 'https://api.billing.example', mayImpersonate: true });
    await store().insertApplication(app);

    await expect(
      store().updateApplicationExchange(app.clientId, { exchangeAudiences: ['https://api.ledger.example'] }),
    ).resolves.toBe('updated');
    await expect(store().findApplication(app.clientId)).resolves.toEqual({
      ...app,
      exchangeAudiences: ['https://api.ledger.example'],
    });

    await expect(
      store().updateApplicationExchange(app.clientId, { resourceUri: null, mayImpersonate: false }),
    ).resolves.toBe('updated');
    await expect(store().findApplication(app.clientId)).resolves.toEqual({
      ...app,
      resourceUri: null,
      exchangeAudiences: ['https://api.ledger.example'],
      mayImpersonate: false,
    });
    await expect(store().findApplicationByResource('https://api.billing.example')).resolves.toBeNull();
  });

  it('keeps whether an app requires DPoP, and changes it by a patch (absent: not required)', async () => {
    const strict = anApplication({ dpopBoundAccessTokens: true });
    const lax = anApplication();
    await store().insertApplication(strict);
    await store().insertApplication(lax);

    await expect(store().findApplication(strict.clientId)).resolves.toEqual(strict);
    expect(await store().findApplication(lax.clientId)).not.toHaveProperty('dpopBoundAccessTokens');
    await store().updateApplicationExchange(lax.clientId, { dpopBoundAccessTokens: true });
    await store().updateApplicationExchange(strict.clientId, { dpopBoundAccessTokens: false });
    expect(await store().findApplication(lax.clientId)).toMatchObject({ dpopBoundAccessTokens: true });
    expect(await store().findApplication(strict.clientId)).not.toHaveProperty('dpopBoundAccessTokens');
  });

  it('answers not_found when patching an unknown application', async () => {
    await expect(store().updateApplicationExchange('no-such-app', { mayImpersonate: true })).resolves.toBe(
      'not_found',
    );
  });

  it('answers conflict when the resource URI is another app’s, changing nothing', async () => {
    const holder = anApplication({ resourceUri: 'https://api.billing.example' });
    const other = anApplication();
    await store().insertApplication(holder);
    await store().insertApplication(other);

    await expect(
      store().updateApplicationExchange(other.clientId, {
        resourceUri: 'https://api.billing.example',
        mayImpersonate: true,
      }),
    ).resolves.toBe('conflict');
    await expect(store().findApplication(other.clientId)).resolves.toEqual(other);
    // The app that holds it may name it again.
    await expect(
      store().updateApplicationExchange(holder.clientId, { resourceUri: 'https://api.billing.example' }),
    ).resolves.toBe('updated');
  });

  it('answers conflict inside a transaction and lets the transaction carry on', async () => {
    const holder = anApplication({ resourceUri: 'urn:platform:billing' });
    const other = anApplication();
    await store().insertApplication(holder);
    await store().insertApplication(other);

    const outcome = await context().transactor.inTransaction(async (stores) => {
      const result = await stores.applications.updateApplicationExchange(other.clientId, {
        resourceUri: 'urn:platform:billing',
      });
      await stores.applications.updateApplicationExchange(other.clientId, { mayImpersonate: true });
      return result;
    });

    expect(outcome).toBe('conflict');
    await expect(store().findApplication(other.clientId)).resolves.toEqual({
      ...other,
      mayImpersonate: true,
    });
  });
};
