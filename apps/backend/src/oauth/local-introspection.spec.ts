import type { PlatformRequest } from '@platform/http';
import { INTROSPECTION_REACH_HEADER } from '@platform/internal';
import type { UpstreamResponse } from '../clients/control-plane.client';
import { LocalTokenVerifier } from '../auth/local-token-verifier';
import { ValidatedTokenCache } from '../auth/validated-token-cache';
import { ISSUER, type Key, keyPair, NOW, sign } from '../testing/access-tokens';
import { type IntrospectionAttempt, LocalIntrospection } from './local-introspection';

const FORM = 'application/x-www-form-urlencoded';
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

/** A POST /v1/oauth/introspect as Fastify hands it over. */
function request(body: Record<string, string>, authorization?: string, contentType = FORM): PlatformRequest {
  return {
    headers: { 'content-type': contentType, ...(authorization !== undefined && { authorization }) },
    rawBody: new URLSearchParams(body).toString(),
  } as unknown as PlatformRequest;
}

/** The control plane's answer to a relayed introspection. */
const upstream = (status: number, reach?: string): UpstreamResponse => ({
  status,
  headers: {
    'content-type': 'application/json',
    ...(reach !== undefined && { [INTROSPECTION_REACH_HEADER]: reach }),
  },
  body: Buffer.from('{}'),
});

describe(LocalIntrospection.name, () => {
  let key: Key;
  let cache: ValidatedTokenCache;
  let verifier: LocalTokenVerifier;
  let local: LocalIntrospection;
  let reportsToken: string;
  let billingToken: string;

  beforeAll(async () => {
    key = await keyPair('RS256');
    reportsToken = await sign(key, { client_id: 'reports', sub: 'reports' });
    billingToken = await sign(key, { client_id: 'billing', sub: 'billing', tenant: 'acme', roles: ['user'] });
  });
  beforeEach(() => {
    cache = new ValidatedTokenCache(100);
    verifier = new LocalTokenVerifier(ISSUER);
    cache.goLive();
    verifier.goLive([key.message], []);
    local = new LocalIntrospection(cache, verifier);
  });

  const attempt = (token: string, secret = 'reports-secret', clientId = 'reports') =>
    local.read(request({ token }, basic(clientId, secret))) as IntrospectionAttempt;

  /** The control plane authenticated `reports` (with `reach`) on a relayed introspection. */
  const authenticated = (reach: 'any' | 'own', secret = 'reports-secret') =>
    local.settle(attempt(reportsToken, secret), upstream(200, reach));

  it('relays a caller it has not seen authenticated, then answers its own tokens itself', () => {
    expect(local.answer(attempt(reportsToken))).toBeUndefined();
    authenticated('own');
    expect(local.answer(attempt(reportsToken))).toEqual({
      active: true,
      client_id: 'reports',
      scope: 'jobs.read',
      sub: 'reports',
      iat: NOW - 10,
      exp: NOW + 600,
      iss: ISSUER,
      aud: ISSUER,
      jti: expect.any(String) as string,
      token_type: 'Bearer',
    });
  });

  it('answers another client’s token as inactive to a caller that sees its own only, in full to one that sees any', () => {
    authenticated('own');
    expect(local.answer(attempt(billingToken))).toEqual({ active: false });
    authenticated('any');
    expect(local.answer(attempt(billingToken))).toMatchObject({
      active: true,
      client_id: 'billing',
      tenant: 'acme',
      roles: ['user'],
    });
  });

  it('relays another secret or another authentication method than the one authenticated', () => {
    authenticated('own');
    expect(local.answer(attempt(reportsToken, 'a-guess'))).toBeUndefined();
    const posted = local.read(
      request({ token: reportsToken, client_id: 'reports', client_secret: 'reports-secret' }),
    )!;
    expect(local.answer(posted)).toBeUndefined();
  });

  it('forgets every authentication at any invalidation, and keeps none that raced one', () => {
    authenticated('own');
    cache.revoke({ kind: 'secret', value: 'reports', created_at: NOW });
    expect(local.answer(attempt(reportsToken))).toBeUndefined();

    const racing = attempt(reportsToken);
    cache.revoke({ kind: 'jti', value: 'another', created_at: 0 });
    local.settle(racing, upstream(200, 'own'));
    expect(local.answer(attempt(reportsToken))).toBeUndefined();
  });

  it('answers nothing while the invalidation stream is dark', () => {
    authenticated('own');
    cache.goDark();
    verifier.goDark();
    expect(local.answer(attempt(reportsToken))).toBeUndefined();
  });

  it('relays a token it cannot judge: revoked, expired, or signed by a key it does not know', async () => {
    authenticated('own');
    const revoked = await sign(key, { jti: 'revoked-one' });
    verifier.revoke({ kind: 'jti', value: 'revoked-one', created_at: 0, expires_at: NOW + 600 });
    expect(local.answer(attempt(revoked))).toBeUndefined();
    expect(local.answer(attempt(await sign(key, { iat: NOW - 700, exp: NOW - 100 })))).toBeUndefined();
    expect(local.answer(attempt(await sign(await keyPair('RS256'))))).toBeUndefined();
  });

  it('remembers nothing from a refusal or an answer without the reach header, and always drops the header', () => {
    const refused = upstream(401, 'own');
    local.settle(attempt(reportsToken), refused);
    expect(refused.headers).not.toHaveProperty(INTROSPECTION_REACH_HEADER);
    local.settle(attempt(reportsToken), upstream(200));
    expect(local.answer(attempt(reportsToken))).toBeUndefined();
    const unread = upstream(200, 'any');
    local.settle(undefined, unread);
    expect(unread.headers).not.toHaveProperty(INTROSPECTION_REACH_HEADER);
  });

  it.each([
    ['a refresh token', request({ token: 'rt_0123456789' }, basic('reports', 's'))],
    ['no token', request({}, basic('reports', 's'))],
    ['no secret', request({ token: 'a.b.c', client_id: 'reports' })],
    [
      'a repeated parameter',
      { ...request({}, basic('reports', 's')), rawBody: 'token=a.b.c&token=d.e.f' } as PlatformRequest,
    ],
    ['two authentication methods', request({ token: 'a.b.c', client_secret: 's' }, basic('reports', 's'))],
    ['a JSON body', request({ token: 'a.b.c' }, basic('reports', 's'), 'application/json')],
  ])('leaves %s to the control plane', (_case, refused) => {
    expect(local.read(refused)).toBeUndefined();
  });
});
