import { createHash } from 'node:crypto';
import { calculateJwkThumbprint, decodeProtectedHeader, EmbeddedJWK, jwtVerify } from 'jose';
import { DpopKey } from './dpop';
import type { FetchLike } from './fetch';
import { OAuthClient } from './oauth-client';
import { PlatformClient } from './platform-client';
import type { TokenSource } from './token-source';

const BASE = 'https://auth.test';

async function verified(proof: string) {
  const { payload, protectedHeader } = await jwtVerify(proof, EmbeddedJWK, { typ: 'dpop+jwt' });
  return { payload, jwk: protectedHeader.jwk! };
}

describe(DpopKey.name, () => {
  it('signs a proof a verifier accepts, naming the method, the URL without its query, and the token', async () => {
    const key = await DpopKey.generate();

    const proof = await key.proof('get', `${BASE}/v1/me?x=1#f`, { accessToken: 'tok' });

    const { payload, jwk } = await verified(proof);
    expect(payload).toMatchObject({ htm: 'GET', htu: `${BASE}/v1/me`, iat: expect.any(Number) });
    expect(payload.ath).toBe(createHash('sha256').update('tok').digest('base64url'));
    expect((jwk as Record<string, unknown>).d).toBeUndefined();
    expect(await key.thumbprint()).toBe(await calculateJwkThumbprint(jwk));
    expect(decodeProtectedHeader(proof).alg).toBe('ES256');
  });

  it('gives every proof a new jti', async () => {
    const key = await DpopKey.generate();
    const [a, b] = await Promise.all([key.proof('GET', BASE), key.proof('GET', BASE)]);

    expect((await verified(a)).payload.jti).not.toBe((await verified(b)).payload.jti);
  });
});

describe('OAuthClient with a DPoP key', () => {
  it('sends a proof with the token request and retries once with the nonce use_dpop_nonce hands out', async () => {
    const key = await DpopKey.generate();
    const proofs: string[] = [];
    const fetch: FetchLike = async (_url, init) => {
      proofs.push((init!.headers as Record<string, string>).dpop);
      return proofs.length === 1
        ? new Response(JSON.stringify({ error: 'use_dpop_nonce' }), {
            status: 400,
            headers: { 'dpop-nonce': 'n-1' },
          })
        : new Response(JSON.stringify({ access_token: 'a', token_type: 'DPoP', expires_in: 1 }));
    };
    const oauth = new OAuthClient({ baseUrl: BASE, clientId: 'c', clientSecret: 's', fetch, dpop: key });

    const tokens = await oauth.clientCredentials();

    expect(tokens.token_type).toBe('DPoP');
    expect(proofs).toHaveLength(2);
    expect((await verified(proofs[0])).payload).toMatchObject({ htm: 'POST', htu: `${BASE}/v1/oauth/token` });
    expect((await verified(proofs[1])).payload.nonce).toBe('n-1');
  });

  it('sends no proof to introspection', async () => {
    const key = await DpopKey.generate();
    const headers: Record<string, string>[] = [];
    const fetch: FetchLike = async (_url, init) => {
      headers.push(init!.headers as Record<string, string>);
      return new Response(JSON.stringify({ active: false }));
    };
    await new OAuthClient({ baseUrl: BASE, clientId: 'c', clientSecret: 's', fetch, dpop: key }).introspect(
      't',
    );

    expect(headers[0].dpop).toBeUndefined();
  });
});

describe('PlatformClient with a DPoP key', () => {
  it('presents the token as DPoP with a proof of the request', async () => {
    const key = await DpopKey.generate();
    const sent: Headers[] = [];
    const fetch: FetchLike = async (_url, init) => {
      sent.push(init!.headers as Headers);
      return new Response(JSON.stringify({ sub: 'c' }));
    };
    const tokens: TokenSource = { getToken: async () => 'tok', renew: async () => undefined };

    await new PlatformClient({ baseUrl: BASE, tokens, fetch, dpop: key }).me();

    expect(sent[0].get('authorization')).toBe('DPoP tok');
    const { payload } = await verified(sent[0].get('dpop')!);
    expect(payload).toMatchObject({ htm: 'GET', htu: `${BASE}/v1/me` });
  });
});
