import { randomUUID } from 'node:crypto';
import type { ExecutionContext } from '@nestjs/common';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { dpopAccessTokenHash, BearerError, DpopChallengeError } from '@platform/domain';
import { toErrorResponse } from '@platform/http';
import { ISSUER, type Key, keyPair, NOW, sign } from '../testing/access-tokens';
import { fakeSidecar, type FakeSidecar } from '../testing/fakes';
import type { SidecarClient } from '../clients/sidecar.client';
import { type AuthenticatedRequest, BearerGuard } from './bearer.guard';
import { PermissionGuard, REQUIRED_PERMISSION } from './permission';
import { Reflector } from '@nestjs/core';
import { DpopResourceCheck } from './dpop-resource-check';
import { LocalTokenVerifier } from './local-token-verifier';
import { ValidatedTokenCache } from './validated-token-cache';

const PATH = '/v1/me';
const URL_ = `${ISSUER}${PATH}`;

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
    iat: NOW,
    ath: dpopAccessTokenHash(token),
    ...claims,
  })
    .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk: key.jwk })
    .sign(key.privateKey);
}

/** RFC 9449 section 7 at the backend: judged locally, from the cache, or by the sidecar. */
describe(`${BearerGuard.name} with DPoP`, () => {
  let signing: Key;
  let client: ClientKey;
  let thief: ClientKey;
  let bound: string;
  let unbound: string;
  let sidecar: FakeSidecar;
  let cache: ValidatedTokenCache;
  let verifier: LocalTokenVerifier;
  let guard: BearerGuard;

  beforeAll(async () => {
    [signing, client, thief] = await Promise.all([keyPair('ES256'), clientKey(), clientKey()]);
    bound = await sign(signing, { cnf: { jkt: client.jkt } });
    unbound = await sign(signing);
  });

  beforeEach(() => {
    sidecar = fakeSidecar();
    cache = new ValidatedTokenCache(100, () => NOW);
    cache.goLive();
    verifier = new LocalTokenVerifier(ISSUER, () => NOW);
    verifier.goLive([signing.message], []);
    guard = new BearerGuard(
      sidecar as unknown as SidecarClient,
      cache,
      verifier,
      new DpopResourceCheck(ISSUER, () => NOW),
    );
  });

  function request(authorization: string, dpop?: string, method = 'GET', url = PATH): AuthenticatedRequest {
    return {
      method,
      url,
      headers: { authorization, ...(dpop !== undefined && { dpop }) },
    } as unknown as AuthenticatedRequest;
  }

  const contextOf = (value: AuthenticatedRequest) =>
    ({ switchToHttp: () => ({ getRequest: () => value }) }) as unknown as ExecutionContext;

  async function activate(value: AuthenticatedRequest): Promise<AuthenticatedRequest> {
    await guard.canActivate(contextOf(value));
    return value;
  }

  async function refusal(value: AuthenticatedRequest): Promise<{ status: number; challenge: string }> {
    const error = await Promise.resolve()
      .then(() => guard.canActivate(contextOf(value)))
      .then(
        () => undefined,
        (caught: unknown) => caught,
      );
    if (!(error instanceof DpopChallengeError || error instanceof BearerError)) {
      throw new Error(`expected a refusal, got ${String(error)}`);
    }
    const response = toErrorResponse(error, { url: PATH, headers: {} });
    return { status: response.status, challenge: response.headers['www-authenticate'] ?? '' };
  }

  it('accepts a bound token with a proof, judged locally, and attaches cnf', async () => {
    const accepted = await activate(request(`DPoP ${bound}`, await proof(client, bound)));

    expect(accepted.claims?.cnf).toEqual({ jkt: client.jkt });
    expect(sidecar.validateToken).not.toHaveBeenCalled();
  });

  it('checks the proof again for a cached token: a new proof passes, the same proof is a replay', async () => {
    const first = await proof(client, bound);
    await activate(request(`DPoP ${bound}`, first));
    await activate(request(`DPoP ${bound}`, await proof(client, bound)));

    expect(await refusal(request(`DPoP ${bound}`, first))).toEqual({
      status: 401,
      challenge: expect.stringMatching(/^DPoP error="invalid_dpop_proof", .*already used.*algs="ES256/),
    });
  });

  it('refuses a bound token presented as Bearer (invalid_token), cached or not', async () => {
    expect(await refusal(request(`Bearer ${bound}`))).toEqual({
      status: 401,
      challenge: expect.stringMatching(/^Bearer .*error="invalid_token".*DPoP-bound/),
    });
    await activate(request(`DPoP ${bound}`, await proof(client, bound)));
    expect((await refusal(request(`Bearer ${bound}`))).challenge).toMatch(/error="invalid_token"/);
  });

  it('refuses an unbound token presented as DPoP (invalid_token)', async () => {
    expect(await refusal(request(`DPoP ${unbound}`, await proof(client, unbound)))).toEqual({
      status: 401,
      challenge: expect.stringMatching(/^DPoP error="invalid_token".*not DPoP-bound/),
    });
  });

  it('refuses DPoP without a proof header', async () => {
    expect((await refusal(request(`DPoP ${bound}`))).challenge).toMatch(
      /invalid_dpop_proof.*proof is required/,
    );
  });

  it.each([
    ['another method', { htm: 'POST' }, /htm/],
    ['another URL', { htu: `${ISSUER}/v1/other` }, /htu/],
    ['a stale iat', { iat: NOW - 61 }, /iat/],
    ['an iat in the future', { iat: NOW + 30 }, /iat/],
    ['no ath', { ath: undefined }, /no ath/],
    ['the ath of another token', { ath: dpopAccessTokenHash('another') }, /ath does not match/],
  ])('refuses a proof with %s (invalid_dpop_proof)', async (_, claims, reason) => {
    const { status, challenge } = await refusal(request(`DPoP ${bound}`, await proof(client, bound, claims)));

    expect(status).toBe(401);
    expect(challenge).toMatch(/^DPoP error="invalid_dpop_proof"/);
    expect(challenge).toMatch(reason);
  });

  it('refuses a proof signed by another key than the token is bound to', async () => {
    expect((await refusal(request(`DPoP ${bound}`, await proof(thief, bound)))).challenge).toMatch(
      /invalid_dpop_proof.*bound to/,
    );
  });

  it('asks the sidecar with the proof when it cannot judge, then checks the proof here too', async () => {
    verifier.goDark();
    sidecar.validateToken.mockResolvedValue({
      iss: ISSUER,
      sub: 'reports',
      aud: ISSUER,
      exp: NOW + 600,
      iat: NOW - 10,
      jti: 'j',
      client_id: 'reports',
      scope: 'jobs.read',
      tenant: '',
      roles: [],
      grant_id: '',
      act: null,
      impersonation: '',
      cnf: { jkt: client.jkt },
    });
    const value = await proof(client, bound);

    await activate(request(`DPoP ${bound}`, value));

    expect(sidecar.validateToken).toHaveBeenCalledWith(bound, '', { proof: value, method: 'GET', url: URL_ });
    // Cached now, the same proof is refused here: the sidecar's replay cache is not ours.
    expect((await refusal(request(`DPoP ${bound}`, value))).challenge).toMatch(/already used/);
  });

  it("answers the sidecar's refusal of a proof as the DPoP challenge", async () => {
    verifier.goDark();
    sidecar.validateToken.mockRejectedValue(
      new BearerError(
        'invalid_token',
        'invalid_dpop_proof: the DPoP proof htu does not match the request URL',
      ),
    );

    expect((await refusal(request(`DPoP ${bound}`, await proof(client, bound)))).challenge).toMatch(
      /^DPoP error="invalid_dpop_proof", error_description="the DPoP proof htu/,
    );
  });

  it('keeps the Bearer path as it was for an unbound token', async () => {
    const accepted = await activate(request(`Bearer ${unbound}`));

    expect(accepted.claims?.cnf).toBeNull();
  });
});

/** The permission guard's DPoP path: the sidecar's Authorize with the proof, then ours. */
describe(`${PermissionGuard.name} with DPoP`, () => {
  let signing: Key;
  let client: ClientKey;
  let bound: string;

  beforeAll(async () => {
    [signing, client] = await Promise.all([keyPair('ES256'), clientKey()]);
    bound = await sign(signing, { cnf: { jkt: client.jkt } });
  });

  function contextFor(request: object): ExecutionContext {
    const handler = () => undefined;
    Reflect.defineMetadata(REQUIRED_PERMISSION, { action: 'jobs.read' }, handler);
    return {
      switchToHttp: () => ({ getRequest: () => request }),
      getHandler: () => handler,
      getClass: () => class Plain {},
    } as unknown as ExecutionContext;
  }

  it('sends the proof to Authorize, then refuses the same proof replayed here', async () => {
    const authorize = jest.fn().mockResolvedValue({
      claims: { ...claimsOf(client.jkt) },
      decisionId: 'd-1',
      decidedBy: ['token-scope'],
    });
    const guard = new PermissionGuard(
      { authorize } as unknown as SidecarClient,
      new Reflector(),
      new DpopResourceCheck(ISSUER, () => NOW),
    );
    const value = await proof(client, bound);
    const request = () => ({
      method: 'GET',
      url: PATH,
      params: {},
      headers: { authorization: `DPoP ${bound}`, dpop: value },
    });

    await expect(guard.canActivate(contextFor(request()))).resolves.toBe(true);
    expect(authorize).toHaveBeenCalledWith(bound, 'jobs.read', '', {
      proof: value,
      method: 'GET',
      url: URL_,
    });
    await expect(guard.canActivate(contextFor(request()))).rejects.toMatchObject({
      code: 'invalid_dpop_proof',
      description: expect.stringMatching(/already used/),
    });
  });
});

function claimsOf(jkt: string) {
  return {
    iss: ISSUER,
    sub: 'reports',
    aud: ISSUER,
    exp: NOW + 600,
    iat: NOW - 10,
    jti: 'j',
    client_id: 'reports',
    scope: 'jobs.read',
    tenant: '',
    roles: [],
    grant_id: '',
    act: null,
    impersonation: '',
    cnf: { jkt },
  };
}
