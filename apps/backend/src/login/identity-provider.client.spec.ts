import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Logger } from '@nestjs/common';
import { discovery } from 'openid-client';
import { IdentityProviderClient, type IdentityProviderSettings } from './identity-provider.client';

beforeAll(() => Logger.overrideLogger(false));
afterAll(() => Logger.overrideLogger(['log', 'error', 'warn']));

/** A stand-in identity provider serving only its discovery document, or failing on demand. */
async function discoveryServer(): Promise<{ issuer: string; server: Server; up: { value: boolean } }> {
  const up = { value: false };
  const server = createServer((request, response) => {
    const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    if (!up.value || request.url !== '/.well-known/openid-configuration') {
      response.writeHead(503).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { issuer: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, up };
}

describe(IdentityProviderClient.name, () => {
  const settings = (issuer: string | undefined): IdentityProviderSettings => ({
    issuer,
    clientId: 'backend',
    clientSecret: 'secret',
    scopes: 'openid email profile',
    redirectUri: 'https://auth.example.test/auth/oidc/callback',
  });

  it('answers unavailable when no identity provider is configured', async () => {
    const client = new IdentityProviderClient(settings(undefined));
    await expect(client.startLogin('/')).rejects.toMatchObject({
      code: 'unavailable',
      message: expect.stringContaining('No identity provider is configured'),
    });
  });

  describe('against a provider that comes and goes', () => {
    let idp: Awaited<ReturnType<typeof discoveryServer>>;

    beforeAll(async () => {
      idp = await discoveryServer();
    });
    afterAll(() => new Promise<void>((resolve) => idp.server.close(() => resolve())));

    it('does not discover before the first login, fails while the provider is down, and retries later', async () => {
      let discoveries = 0;
      const client = new IdentityProviderClient(settings(idp.issuer), (...args) => {
        discoveries += 1;
        return discovery(...args);
      });
      expect(discoveries).toBe(0);

      idp.up.value = false;
      await expect(client.startLogin('/')).rejects.toMatchObject({ code: 'unavailable' });

      idp.up.value = true;
      const { authorizationUrl, transaction } = await client.startLogin('/oauth/authorize?client_id=x');
      expect(discoveries).toBe(2);
      expect(authorizationUrl.origin + authorizationUrl.pathname).toBe(`${idp.issuer}/authorize`);
      expect(Object.fromEntries(authorizationUrl.searchParams)).toEqual({
        client_id: 'backend',
        redirect_uri: 'https://auth.example.test/auth/oidc/callback',
        response_type: 'code',
        scope: 'openid email profile',
        state: transaction.state,
        nonce: transaction.nonce,
        code_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        code_challenge_method: 'S256',
      });
      expect(transaction.returnTo).toBe('/oauth/authorize?client_id=x');

      await client.startLogin('/');
      expect(discoveries).toBe(2);
    });

    it('makes a fresh state, nonce and verifier for every login', async () => {
      idp.up.value = true;
      const client = new IdentityProviderClient(settings(idp.issuer));
      const first = (await client.startLogin('/')).transaction;
      const second = (await client.startLogin('/')).transaction;
      expect(second.state).not.toBe(first.state);
      expect(second.nonce).not.toBe(first.nonce);
      expect(second.codeVerifier).not.toBe(first.codeVerifier);
    });
  });
});
