import { randomUUID } from 'node:crypto';
import {
  calculateJwkThumbprint,
  decodeJwt,
  exportJWK,
  generateKeyPair,
  SignJWT,
  type CryptoKey,
  type JWK,
} from 'jose';
import { OAuthError } from '../errors';
import { createTestEngine, postCredentials, TEST_ISSUER, type TestEngine } from '../testing/in-memory-stores';

const TOKEN_URL = `${TEST_ISSUER}/v1/oauth/token`;

/** RFC 9449 section 5 at the token endpoint: the proof checked, the token bound, the app's rule. */
describe('DPoP at the token endpoint', () => {
  let engine: TestEngine;
  let privateKey: CryptoKey;
  let jwk: JWK;

  beforeAll(async () => {
    const pair = await generateKeyPair('ES256');
    privateKey = pair.privateKey;
    jwk = await exportJWK(pair.publicKey);
  });

  beforeEach(async () => {
    engine = await createTestEngine();
  });

  const proof = (claims: Record<string, unknown> = {}) =>
    new SignJWT({ jti: randomUUID(), htm: 'POST', htu: TOKEN_URL, iat: engine.clock.seconds, ...claims })
      .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk })
      .sign(privateKey);

  async function refusal(run: Promise<unknown>): Promise<OAuthError> {
    const error = await run.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    if (!(error instanceof OAuthError)) throw new Error(`expected an OAuthError, got ${String(error)}`);
    return error;
  }

  it('binds the access token to the proof key (cnf.jkt) and answers token_type DPoP', async () => {
    const app = await engine.seed({ clientId: 'worker' });

    const response = await engine.tokenEndpoint.handle(
      { grant_type: 'client_credentials', ...postCredentials(app) },
      undefined,
      { proof: await proof(), url: TOKEN_URL },
    );

    expect(response.token_type).toBe('DPoP');
    expect(decodeJwt(response.access_token).cnf).toEqual({ jkt: await calculateJwkThumbprint(jwk) });
  });

  it('issues a Bearer token without cnf when no proof came', async () => {
    const app = await engine.seed({ clientId: 'worker' });

    const response = await engine.tokenEndpoint.handle(
      { grant_type: 'client_credentials', ...postCredentials(app) },
      undefined,
      { url: TOKEN_URL },
    );

    expect(response.token_type).toBe('Bearer');
    expect(decodeJwt(response.access_token).cnf).toBeUndefined();
  });

  it('refuses a proof for another method, another URL, or replayed: invalid_dpop_proof', async () => {
    const app = await engine.seed({ clientId: 'worker' });
    const request = async (value: string) =>
      refusal(
        engine.tokenEndpoint.handle(
          { grant_type: 'client_credentials', ...postCredentials(app) },
          undefined,
          {
            proof: value,
            url: TOKEN_URL,
          },
        ),
      );
    const once = await proof();
    await engine.tokenEndpoint.handle(
      { grant_type: 'client_credentials', ...postCredentials(app) },
      undefined,
      {
        proof: once,
        url: TOKEN_URL,
      },
    );

    for (const value of [await proof({ htm: 'GET' }), await proof({ htu: `${TEST_ISSUER}/v1/me` }), once]) {
      expect((await request(value)).code).toBe('invalid_dpop_proof');
    }
  });

  it('refuses an app registered with dpop_bound_access_tokens without a proof', async () => {
    const app = await engine.seed({ clientId: 'strict' });
    await engine.registry.updateExchange('strict', { dpopBoundAccessTokens: true });

    const error = await refusal(
      engine.tokenEndpoint.handle({ grant_type: 'client_credentials', ...postCredentials(app) }, undefined, {
        url: TOKEN_URL,
      }),
    );

    expect(error.code).toBe('invalid_dpop_proof');
    const bound = await engine.tokenEndpoint.handle(
      { grant_type: 'client_credentials', ...postCredentials(app) },
      undefined,
      { proof: await proof(), url: TOKEN_URL },
    );
    expect(bound.token_type).toBe('DPoP');
  });

  it('shows cnf and token_type DPoP at introspection', async () => {
    const app = await engine.seed({ clientId: 'worker' });
    const { access_token } = await engine.tokenEndpoint.handle(
      { grant_type: 'client_credentials', ...postCredentials(app) },
      undefined,
      { proof: await proof(), url: TOKEN_URL },
    );

    const answer = await engine.introspector.introspect(
      { token: access_token, ...postCredentials(app) },
      undefined,
    );

    expect(answer).toMatchObject({
      active: true,
      token_type: 'DPoP',
      cnf: { jkt: await calculateJwkThumbprint(jwk) },
    });
  });
});
