import { exportJWK, generateKeyPair } from 'jose';
import { DomainError } from '../errors';
import { createTestEngine, expectDomainError } from '../testing/in-memory-stores';
import { checkedClientAuth } from './client-keys';

const PRODUCTION = { allowPrivateNetworks: false };

async function publicJwk() {
  const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
  return { public: { ...(await exportJWK(publicKey)), kid: 'k1' }, private: await exportJWK(privateKey) };
}

describe(checkedClientAuth.name, () => {
  it('keeps the old behaviour when the method is omitted', () => {
    expect(checkedClientAuth('service', {}, PRODUCTION)).toEqual({});
  });

  it('takes private_key_jwt with an inline set of public keys, or a jwks_uri', async () => {
    const jwk = await publicJwk();
    expect(
      checkedClientAuth(
        'service',
        { tokenEndpointAuthMethod: 'private_key_jwt', jwks: { keys: [jwk.public] } },
        PRODUCTION,
      ),
    ).toEqual({ tokenEndpointAuthMethod: 'private_key_jwt', jwks: { keys: [jwk.public] } });
    expect(
      checkedClientAuth(
        'web',
        { tokenEndpointAuthMethod: 'private_key_jwt', jwksUri: 'https://app.example/jwks.json' },
        PRODUCTION,
      ),
    ).toEqual({ tokenEndpointAuthMethod: 'private_key_jwt', jwksUri: 'https://app.example/jwks.json' });
  });

  it.each([
    [
      'a private key',
      async () => ({
        tokenEndpointAuthMethod: 'private_key_jwt',
        jwks: { keys: [(await publicJwk()).private] },
      }),
    ],
    [
      'a symmetric key',
      async () => ({
        tokenEndpointAuthMethod: 'private_key_jwt',
        jwks: { keys: [{ kty: 'oct', k: 'c2VjcmV0' }] },
      }),
    ],
    ['no keys at all', async () => ({ tokenEndpointAuthMethod: 'private_key_jwt' })],
    [
      'both jwks and jwks_uri',
      async () => ({
        tokenEndpointAuthMethod: 'private_key_jwt',
        jwks: { keys: [(await publicJwk()).public] },
        jwksUri: 'https://app.example/jwks',
      }),
    ],
    [
      'a jwks_uri on a private address',
      async () => ({ tokenEndpointAuthMethod: 'private_key_jwt', jwksUri: 'https://10.1.2.3/jwks' }),
    ],
    ['keys without private_key_jwt', async () => ({ jwksUri: 'https://app.example/jwks' })],
    ['an unknown method', async () => ({ tokenEndpointAuthMethod: 'client_secret_jwt' })],
    ['none for a service app', async () => ({ tokenEndpointAuthMethod: 'none' })],
  ])('refuses %s', async (_, make) => {
    const input = await make();
    expect(() => checkedClientAuth('service', input, PRODUCTION)).toThrow(DomainError);
  });

  it('refuses private_key_jwt for a spa, which holds no credentials', async () => {
    const jwk = await publicJwk();
    expect(() =>
      checkedClientAuth(
        'spa',
        { tokenEndpointAuthMethod: 'private_key_jwt', jwks: { keys: [jwk.public] } },
        PRODUCTION,
      ),
    ).toThrow(DomainError);
  });

  it('registers a private_key_jwt app without a secret, whose secret cannot be rotated', async () => {
    const engine = await createTestEngine();
    const jwk = await publicJwk();
    const { app, clientSecret } = await engine.registry.register({
      clientId: 'ledger-worker',
      name: 'Ledger worker',
      appType: 'service',
      declaredScopes: ['jobs.read'],
      tokenEndpointAuthMethod: 'private_key_jwt',
      jwks: { keys: [jwk.public] },
    });
    expect(clientSecret).toBeUndefined();
    expect(app).toMatchObject({ secretHash: null, tokenEndpointAuthMethod: 'private_key_jwt' });
    await expectDomainError(engine.registry.rotateSecret('ledger-worker'), 'conflict');
  });

  it('rotates a private_key_jwt app’s keys by PATCH, one source replacing the other, audited', async () => {
    const engine = await createTestEngine();
    const [first, second] = [await publicJwk(), await publicJwk()];
    await engine.registry.register({
      clientId: 'ledger-worker',
      name: 'Ledger worker',
      appType: 'service',
      declaredScopes: ['jobs.read'],
      tokenEndpointAuthMethod: 'private_key_jwt',
      jwks: { keys: [first.public] },
    });
    const byUri = await engine.registry.updateExchange('ledger-worker', {
      jwksUri: 'https://ledger.example/jwks.json',
    });
    expect(byUri).toMatchObject({ jwksUri: 'https://ledger.example/jwks.json' });
    expect(byUri.jwks).toBeUndefined();
    const inline = await engine.registry.updateExchange('ledger-worker', { jwks: { keys: [second.public] } });
    expect(inline).toMatchObject({ jwks: { keys: [second.public] } });
    expect(inline.jwksUri).toBeUndefined();
    await expectDomainError(
      engine.registry.updateExchange('ledger-worker', { jwks: { keys: [second.private] } }),
      'validation_failed',
    );
    const events = await engine.stores.tokenEvents.listTokenEvents({ limit: 10 });
    expect(events.filter((event) => event.type === 'app.updated')).toHaveLength(2);
  });

  it('refuses keys for an app that authenticates with a secret', async () => {
    const engine = await createTestEngine();
    await engine.seed({ clientId: 'secret-worker' });
    await expectDomainError(
      engine.registry.updateExchange('secret-worker', { jwksUri: 'https://worker.example/jwks.json' }),
      'validation_failed',
    );
  });
});
