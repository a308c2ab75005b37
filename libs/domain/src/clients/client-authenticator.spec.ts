import { ClientAuthenticator } from './client-authenticator';
import {
  InMemoryApplicationStore,
  expectOAuthError,
  seedApplication,
  testArgon2idHasher,
} from '../testing/in-memory-stores';
import type { PresentedClientCredentials } from './client-credentials';

async function setUp() {
  const applications = new InMemoryApplicationStore();
  const stores = { applications };
  const authenticator = new ClientAuthenticator(applications, testArgon2idHasher);
  const worker = await seedApplication(stores, { clientId: 'reports-worker' });
  const spa = await seedApplication(stores, { clientId: 'dashboard', appType: 'spa' });
  return { authenticator, worker, spa, applications };
}

describe(ClientAuthenticator.name, () => {
  it('reads an app once for the requests that arrive in one turn, and again in the next turn', async () => {
    const { authenticator, worker, applications } = await setUp();
    const reads = jest.spyOn(applications, 'findApplication');
    const credentials = {
      clientId: 'reports-worker',
      clientSecret: worker.secret,
      method: 'client_secret_post',
    } as const;
    const together = await Promise.all([1, 2, 3].map(() => authenticator.authenticate(credentials)));
    expect(together.map((client) => client.authenticatedWithSecret)).toEqual([true, true, true]);
    expect(reads.mock.calls).toEqual([['reports-worker']]);

    // A change made between two turns is seen by the next one: the read is not kept.
    await applications.deleteApplication('reports-worker');
    await expectOAuthError(authenticator.authenticate(credentials), 'invalid_client');
    expect(reads).toHaveBeenCalledTimes(2);
  });

  it('does not share a read between different clients of one turn', async () => {
    const { authenticator, applications } = await setUp();
    const reads = jest.spyOn(applications, 'findApplication');
    const [worker, spa] = await Promise.all(
      ['reports-worker', 'dashboard'].map((clientId) =>
        authenticator.authenticate({ clientId, clientSecret: undefined, method: 'none' }),
      ),
    );
    expect([worker.app.clientId, spa.app.clientId]).toEqual(['reports-worker', 'dashboard']);
    expect(reads).toHaveBeenCalledTimes(2);
  });

  it('authenticates a client presenting its secret', async () => {
    const { authenticator, worker } = await setUp();
    const client = await authenticator.authenticate({
      clientId: 'reports-worker',
      clientSecret: worker.secret,
      method: 'client_secret_post',
    });
    expect(client.authenticatedWithSecret).toBe(true);
    expect(client.app.clientId).toBe('reports-worker');
  });

  it('refuses an unknown client as invalid_client', async () => {
    const { authenticator } = await setUp();
    await expectOAuthError(
      authenticator.authenticate({ clientId: 'nobody', clientSecret: 'x', method: 'client_secret_post' }),
      'invalid_client',
    );
  });

  it('refuses an unknown client even when it presents no secret', async () => {
    const { authenticator } = await setUp();
    await expectOAuthError(
      authenticator.authenticate({ clientId: 'nobody', clientSecret: undefined, method: 'none' }),
      'invalid_client',
    );
  });

  it('spends as much on an unknown client_id as on a known one with a wrong secret (within 10%)', async () => {
    // The hasher is the one that made the apps' hashes, so the dummy hash has their parameters.
    const { authenticator } = await setUp();
    const attempt = (clientId: string): PresentedClientCredentials => ({
      clientId,
      clientSecret: 'guess',
      method: 'client_secret_post',
    });
    // CPU time of the process (argon2's thread included): unlike the wall clock, the machine's
    // other load does not add to it, so a few calls give a steady figure.
    const cpuMicros = async (credentials: PresentedClientCredentials) => {
      const before = process.cpuUsage();
      await expectOAuthError(authenticator.authenticate(credentials), 'invalid_client');
      const { user, system } = process.cpuUsage(before);
      return user + system;
    };
    await cpuMicros(attempt('nobody')); // the dummy hash is made once, at the first unknown client
    // The cheapest of many calls on each side, taken in turn: what else the process and the
    // machine do (a collection, another suite's worker) only ever adds to a call, never takes away.
    const unknown: number[] = [];
    const known: number[] = [];
    for (let i = 0; i < 21; i += 1) {
      unknown.push(await cpuMicros(attempt('nobody')));
      known.push(await cpuMicros(attempt('reports-worker')));
    }
    expect(Math.abs(Math.min(...unknown) / Math.min(...known) - 1)).toBeLessThan(0.1);
  });

  it('refuses a wrong secret as invalid_client', async () => {
    const { authenticator } = await setUp();
    await expectOAuthError(
      authenticator.authenticate({
        clientId: 'reports-worker',
        clientSecret: 'guess',
        method: 'client_secret_basic',
      }),
      'invalid_client',
    );
  });

  it('refuses an empty secret as invalid_client', async () => {
    const { authenticator } = await setUp();
    await expectOAuthError(
      authenticator.authenticate({
        clientId: 'reports-worker',
        clientSecret: '',
        method: 'client_secret_basic',
      }),
      'invalid_client',
    );
  });

  it('refuses a spa that presents a secret, since it has none', async () => {
    const { authenticator } = await setUp();
    await expectOAuthError(
      authenticator.authenticate({
        clientId: 'dashboard',
        clientSecret: 'anything',
        method: 'client_secret_post',
      }),
      'invalid_client',
    );
  });

  it('identifies a client presenting only its client_id, marked as not authenticated by secret', async () => {
    const { authenticator } = await setUp();
    const client = await authenticator.authenticate({
      clientId: 'dashboard',
      clientSecret: undefined,
      method: 'none',
    });
    expect(client).toMatchObject({
      authenticatedWithSecret: false,
      app: { clientId: 'dashboard', appType: 'spa' },
    });
  });

  it('refuses a client_id-only client where a secret is required', async () => {
    const { authenticator } = await setUp();
    await expectOAuthError(
      authenticator.authenticateConfidential({
        clientId: 'reports-worker',
        clientSecret: undefined,
        method: 'none',
      }),
      'invalid_client',
    );
  });

  it('returns the application where a secret is required and presented', async () => {
    const { authenticator, worker } = await setUp();
    await expect(
      authenticator.authenticateConfidential({
        clientId: 'reports-worker',
        clientSecret: worker.secret,
        method: 'client_secret_post',
      }),
    ).resolves.toMatchObject({ clientId: 'reports-worker' });
  });
});
