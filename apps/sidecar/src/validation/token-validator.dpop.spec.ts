import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { dpopAccessTokenHash, DenyList, systemClock } from '@platform/domain';
import { SidecarError } from '../errors';
import { Readiness } from '../health/readiness';
import { KeyCache } from '../keys/key-cache';
import { FakeControlPlane } from '../testing/fake-control-plane';
import { testConfig } from '../testing/test-config';
import { createTestKey, signAccessToken, type TestKey } from '../testing/test-keys';
import { TokenValidator, type DpopPresentation } from './token-validator';

const URL_ = 'https://auth.example.com/v1/reports';
const now = () => Math.floor(Date.now() / 1000);

interface ClientKey {
  privateKey: CryptoKey;
  jwk: JWK;
  jkt: string;
}

async function clientKey(): Promise<ClientKey> {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const jwk = await exportJWK(publicKey);
  return { privateKey, jwk, jkt: await calculateJwkThumbprint(jwk) };
}

function proof(key: ClientKey, token: string, claims: Record<string, unknown> = {}): Promise<string> {
  return new SignJWT({
    jti: randomUUID(),
    htm: 'GET',
    htu: URL_,
    iat: now(),
    ath: dpopAccessTokenHash(token),
    ...claims,
  })
    .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk: key.jwk })
    .sign(key.privateKey);
}

/** ValidateToken's DPoP checks (RFC 9449 section 7), on the sidecar's own replay cache. */
describe(`${TokenValidator.name} with DPoP`, () => {
  let signing: TestKey;
  let client: ClientKey;
  let thief: ClientKey;
  let validator: TokenValidator;
  let bound: string;
  let unbound: string;

  beforeAll(async () => {
    Logger.overrideLogger(false);
    [signing, client, thief] = await Promise.all([createTestKey('RS256'), clientKey(), clientKey()]);
  });

  beforeEach(async () => {
    const controlPlane = new FakeControlPlane();
    controlPlane.publish(signing.publicJwk);
    const config = testConfig();
    const keys = new KeyCache(controlPlane, config, systemClock, new Readiness());
    await keys.refresh();
    validator = new TokenValidator(keys, new DenyList(), config, systemClock);
    bound = await signAccessToken(signing, { claims: { cnf: { jkt: client.jkt } } });
    unbound = await signAccessToken(signing);
  });

  const presentation = (value: string, overrides: Partial<DpopPresentation> = {}): DpopPresentation => ({
    proof: value,
    method: 'GET',
    url: URL_,
    ...overrides,
  });

  async function refusal(token: string, presented?: DpopPresentation): Promise<string> {
    const error = await validator.validate(token, '', presented).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    if (!(error instanceof SidecarError)) throw new Error(`expected a SidecarError, got ${String(error)}`);
    expect(error.code).toBe('dpop_invalid');
    return error.message;
  }

  it('accepts a bound token with a fresh proof of its key, answering cnf', async () => {
    const claims = await validator.validate(bound, '', presentation(await proof(client, bound)));

    expect(claims.cnf).toEqual({ jkt: client.jkt });
  });

  it('answers an unbound token presented as Bearer with cnf null', async () => {
    expect((await validator.validate(unbound)).cnf).toBeNull();
  });

  it('refuses a bound token presented without a proof (as Bearer)', async () => {
    expect(await refusal(bound)).toMatch(/DPoP-bound/);
    expect(await refusal(bound, presentation(''))).toMatch(/DPoP-bound/);
  });

  it('refuses an unbound token presented with a proof (as DPoP)', async () => {
    expect(await refusal(unbound, presentation(await proof(client, unbound)))).toMatch(/not DPoP-bound/);
  });

  it('refuses a proof for another method', async () => {
    const value = await proof(client, bound);

    expect(await refusal(bound, presentation(value, { method: 'DELETE' }))).toMatch(
      /^invalid_dpop_proof: .*htm/,
    );
  });

  it('refuses a proof for another URL', async () => {
    const value = await proof(client, bound, { htu: 'https://auth.example.com/v1/other' });

    expect(await refusal(bound, presentation(value))).toMatch(/^invalid_dpop_proof: .*htu/);
  });

  it('refuses a stale proof', async () => {
    const value = await proof(client, bound, { iat: now() - 120 });

    expect(await refusal(bound, presentation(value))).toMatch(/^invalid_dpop_proof: .*iat/);
  });

  it('refuses a replayed proof, also once the token is cached', async () => {
    const value = await proof(client, bound);
    await validator.validate(bound, '', presentation(value));

    expect(await refusal(bound, presentation(value))).toMatch(/^invalid_dpop_proof: .*already used/);
  });

  it('refuses a cached bound token without a proof: the proof is per call', async () => {
    await validator.validate(bound, '', presentation(await proof(client, bound)));

    expect(await refusal(bound)).toMatch(/DPoP-bound/);
  });

  it('refuses a proof of another key (the token stolen, the thief signing)', async () => {
    const value = await proof(thief, bound);

    expect(await refusal(bound, presentation(value))).toMatch(/^invalid_dpop_proof: .*bound to/);
  });

  it('refuses a proof without ath, or with the ath of another token', async () => {
    const without = await proof(client, bound, { ath: undefined });
    const another = await proof(client, bound, { ath: dpopAccessTokenHash(unbound) });

    expect(await refusal(bound, presentation(without))).toMatch(/^invalid_dpop_proof: .*no ath/);
    expect(await refusal(bound, presentation(another))).toMatch(/^invalid_dpop_proof: .*ath does not match/);
  });

  it('refuses alg none and a proof whose jwk is a private key', async () => {
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'dpop+jwt', jwk: client.jwk })).toString('base64url')}.${Buffer.from(
      JSON.stringify({ jti: 'n', htm: 'GET', htu: URL_, iat: now(), ath: dpopAccessTokenHash(bound) }),
    ).toString('base64url')}.`;
    const { privateKey } = await generateKeyPair('ES256', { extractable: true });
    const privateJwk = await exportJWK(privateKey);
    const leaked = await new SignJWT({
      jti: randomUUID(),
      htm: 'GET',
      htu: URL_,
      iat: now(),
      ath: dpopAccessTokenHash(bound),
    })
      .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk: privateJwk })
      .sign(privateKey);

    expect(await refusal(bound, presentation(none))).toMatch(/alg is not allowed/);
    expect(await refusal(bound, presentation(leaked))).toMatch(/public key/);
  });

  it('refuses a proof whose typ is not dpop+jwt', async () => {
    const value = await new SignJWT({
      jti: randomUUID(),
      htm: 'GET',
      htu: URL_,
      iat: now(),
      ath: dpopAccessTokenHash(bound),
    })
      .setProtectedHeader({ alg: 'ES256', typ: 'JWT', jwk: client.jwk })
      .sign(client.privateKey);

    expect(await refusal(bound, presentation(value))).toMatch(/typ/);
  });
});
