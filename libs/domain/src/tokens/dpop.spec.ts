import { createHash, generateKeyPairSync, randomUUID } from 'node:crypto';
import {
  base64url,
  calculateJwkThumbprint,
  exportJWK,
  generateKeyPair,
  SignJWT,
  type CryptoKey,
  type JWK,
} from 'jose';
import {
  dpopAccessTokenHash,
  DpopNonces,
  DpopProofError,
  DpopProofVerifier,
  DpopReplayCache,
  jwkThumbprint,
  type DpopProofCheck,
} from './dpop';

const URL_ = 'https://auth.example.com/v1/me';
const NOW = 1_800_000_000;
const TOKEN = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln';

interface ClientKey {
  alg: string;
  privateKey: CryptoKey;
  jwk: JWK;
}

async function clientKey(alg = 'ES256'): Promise<ClientKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  return { alg, privateKey, jwk: await exportJWK(publicKey) };
}

interface ProofOptions {
  header?: Record<string, unknown>;
  claims?: Record<string, unknown>;
  /** Sign with this key while the header names `key`'s jwk. */
  signer?: ClientKey;
}

function proof(key: ClientKey, options: ProofOptions = {}): Promise<string> {
  return new SignJWT({
    jti: randomUUID(),
    htm: 'GET',
    htu: URL_,
    iat: NOW,
    ath: dpopAccessTokenHash(TOKEN),
    ...options.claims,
  })
    .setProtectedHeader({ alg: key.alg, typ: 'dpop+jwt', jwk: key.jwk, ...options.header } as never)
    .sign((options.signer ?? key).privateKey);
}

/** A compact JWS built by hand, for the algorithms jose refuses to sign with a key pair. */
function unsigned(header: Record<string, unknown>, claims: Record<string, unknown>, signature = ''): string {
  const part = (value: object) => base64url.encode(JSON.stringify(value));
  return `${part(header)}.${part(claims)}.${signature}`;
}

describe(DpopProofVerifier.name, () => {
  let es256: ClientKey;
  let other: ClientKey;
  let verifier: DpopProofVerifier;
  let now: number;

  beforeAll(async () => {
    [es256, other] = await Promise.all([clientKey('ES256'), clientKey('ES256')]);
  });

  beforeEach(() => {
    now = NOW;
    verifier = new DpopProofVerifier(new DpopReplayCache(), () => now);
  });

  const check = (value: string, overrides: Partial<DpopProofCheck> = {}): DpopProofCheck => ({
    proof: value,
    method: 'GET',
    url: URL_,
    accessToken: TOKEN,
    ...overrides,
  });

  function refusal(run: () => unknown): DpopProofError {
    try {
      run();
    } catch (error) {
      if (error instanceof DpopProofError) return error;
      throw error;
    }
    throw new Error('the proof was accepted');
  }

  describe('accepts', () => {
    it('a fresh ES256 proof, answering the RFC 7638 thumbprint of its key', async () => {
      const verified = verifier.verify(check(await proof(es256)));

      expect(verified.jkt).toBe(await calculateJwkThumbprint(es256.jwk, 'sha256'));
    });

    it.each(['RS256', 'PS256', 'ES384', 'EdDSA'])('a %s proof', async (alg) => {
      const key = await clientKey(alg);

      expect(verifier.verify(check(await proof(key))).jkt).toBe(await calculateJwkThumbprint(key.jwk));
    });

    it('an htu differing only by query, fragment, host case or default port', async () => {
      const value = await proof(es256, { claims: { htu: 'https://AUTH.example.com:443/v1/me' } });

      expect(() => verifier.verify(check(value, { url: `${URL_}?page=2#top` }))).not.toThrow();
    });

    it('a proof as old as the window and one a little ahead of our clock', async () => {
      const old = await proof(es256, { claims: { iat: NOW - 60 } });
      const ahead = await proof(es256, { claims: { iat: NOW + 5 } });

      expect(() => verifier.verify(check(old))).not.toThrow();
      expect(() => verifier.verify(check(ahead))).not.toThrow();
    });

    it('a proof with no ath at the token endpoint (no access token yet)', async () => {
      const value = await proof(es256, { claims: { ath: undefined, htm: 'POST' } });

      expect(() => verifier.verify(check(value, { method: 'POST', accessToken: undefined }))).not.toThrow();
    });

    it('a proof of the key the token is bound to', async () => {
      const jkt = await calculateJwkThumbprint(es256.jwk);
      const value = await proof(es256);

      expect(() => verifier.verify(check(value, { jkt }))).not.toThrow();
    });
  });

  describe('refuses (RFC 9449 section 4.3)', () => {
    it('a value that is not one JWT', () => {
      expect(refusal(() => verifier.verify(check('a.b'))).description).toMatch(/not a JWT/);
    });

    it('a typ other than dpop+jwt', async () => {
      const value = await proof(es256, { header: { typ: 'JWT' } });

      expect(refusal(() => verifier.verify(check(value))).description).toMatch(/typ/);
    });

    it('alg none', () => {
      const value = unsigned(
        { alg: 'none', typ: 'dpop+jwt', jwk: es256.jwk },
        { jti: 'x', htm: 'GET', htu: URL_, iat: NOW },
      );

      expect(refusal(() => verifier.verify(check(value))).description).toMatch(/alg is not allowed/);
    });

    it('HS256, whatever key it is keyed with', () => {
      const claims = { jti: 'x', htm: 'GET', htu: URL_, iat: NOW, ath: dpopAccessTokenHash(TOKEN) };
      const header = { alg: 'HS256', typ: 'dpop+jwt', jwk: es256.jwk };
      const input = unsigned(header, claims).slice(0, -1);
      const mac = createHash('sha256').update(input).digest('base64url');

      expect(refusal(() => verifier.verify(check(`${input}.${mac}`))).description).toMatch(
        /alg is not allowed/,
      );
    });

    it('a jwk holding a private key', async () => {
      const { privateKey } = await generateKeyPair('ES256', { extractable: true });
      const withPrivate = { alg: 'ES256', privateKey, jwk: await exportJWK(privateKey) };

      const value = await proof(withPrivate);
      expect(refusal(() => verifier.verify(check(value))).description).toMatch(/public key/);
    });

    it('a proof with no jwk', async () => {
      const value = await proof(es256, { header: { jwk: undefined } });

      expect(refusal(() => verifier.verify(check(value))).description).toMatch(/no jwk/);
    });

    it('a signature by another key than the jwk names', async () => {
      const value = await proof(es256, { signer: other });

      expect(refusal(() => verifier.verify(check(value))).description).toMatch(/signature/);
    });

    it('a key that does not fit its alg (an RSA key under ES256)', async () => {
      const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
      const jwk = rsa.publicKey.export({ format: 'jwk' });
      const value = await proof({ ...es256, jwk: jwk as JWK });

      expect(refusal(() => verifier.verify(check(value))).description).toMatch(/does not fit/);
    });

    it('another method (htm)', async () => {
      const value = await proof(es256, { claims: { htm: 'POST' } });

      expect(refusal(() => verifier.verify(check(value))).description).toMatch(/htm/);
    });

    it('another URL (htu)', async () => {
      const value = await proof(es256, { claims: { htu: 'https://auth.example.com/v1/other' } });

      expect(refusal(() => verifier.verify(check(value))).description).toMatch(/htu/);
    });

    it('another origin (htu)', async () => {
      const value = await proof(es256, { claims: { htu: 'https://evil.example.com/v1/me' } });

      expect(refusal(() => verifier.verify(check(value))).description).toMatch(/htu/);
    });

    it('a stale iat', async () => {
      const value = await proof(es256, { claims: { iat: NOW - 61 } });

      expect(refusal(() => verifier.verify(check(value))).description).toMatch(/iat/);
    });

    it('an iat in the future', async () => {
      const value = await proof(es256, { claims: { iat: NOW + 6 } });

      expect(refusal(() => verifier.verify(check(value))).description).toMatch(/iat/);
    });

    it('a replayed jti', async () => {
      const value = await proof(es256);
      verifier.verify(check(value));

      expect(refusal(() => verifier.verify(check(value))).description).toMatch(/already used/);
    });

    it('a proof without ath at a resource', async () => {
      const value = await proof(es256, { claims: { ath: undefined } });

      expect(refusal(() => verifier.verify(check(value))).description).toMatch(/no ath/);
    });

    it('an ath of another token', async () => {
      const value = await proof(es256, { claims: { ath: dpopAccessTokenHash(`${TOKEN}x`) } });

      expect(refusal(() => verifier.verify(check(value))).description).toMatch(/ath does not match/);
    });

    it('a key other than the one the token is bound to, before taking its jti', async () => {
      const value = await proof(other);
      const jkt = await calculateJwkThumbprint(es256.jwk);

      expect(refusal(() => verifier.verify(check(value, { jkt }))).description).toMatch(/bound to/);
      // The refused proof took no room: with the right binding it is still fresh.
      const otherJkt = await calculateJwkThumbprint(other.jwk);
      expect(() => verifier.verify(check(value, { jkt: otherJkt }))).not.toThrow();
    });

    it('a proof without jti', async () => {
      const value = await proof(es256, { claims: { jti: undefined } });

      expect(refusal(() => verifier.verify(check(value))).description).toMatch(/jti/);
    });
  });

  describe('server nonces (RFC 9449 section 8)', () => {
    let nonces: DpopNonces;

    beforeEach(() => {
      nonces = new DpopNonces(Buffer.alloc(32, 7), () => now);
      verifier = new DpopProofVerifier(new DpopReplayCache(), () => now, { nonces });
    });

    it('answers a proof without a nonce use_dpop_nonce, handing out the current one', async () => {
      const error = refusal(() => verifier.verify(check(proofWithout)));

      expect(error.code).toBe('use_dpop_nonce');
      expect(error.nonce).toBe(nonces.current());
      expect(verifier.currentNonce()).toBe(nonces.current());
    });

    it('accepts the nonce handed out, and still the previous one after a step', async () => {
      const nonce = nonces.current();
      expect(() => verifier.verify(check(proofWith(nonce, 'a')))).not.toThrow();

      now += 300;
      expect(() => verifier.verify(check(proofWith(nonce, 'b', now)))).not.toThrow();
    });

    it('refuses a nonce two steps old, or one it never handed out', async () => {
      const nonce = nonces.current();
      now += 600;

      expect(refusal(() => verifier.verify(check(proofWith(nonce, 'c', now)))).code).toBe('use_dpop_nonce');
      expect(refusal(() => verifier.verify(check(proofWith('made-up', 'd', now)))).code).toBe(
        'use_dpop_nonce',
      );
    });

    let proofWithout: string;
    const signed = new Map<string, string>();
    function proofWith(nonce: string, id: string, iat = NOW): string {
      const value = signed.get(`${nonce}/${id}/${iat}`);
      if (value === undefined) throw new Error('sign it in beforeAll');
      return value;
    }

    beforeAll(async () => {
      proofWithout = await proof(es256);
      const secretNonces = new DpopNonces(Buffer.alloc(32, 7), () => NOW);
      const first = secretNonces.current();
      for (const [id, iat] of [
        ['a', NOW],
        ['b', NOW + 300],
        ['c', NOW + 600],
      ] as const) {
        signed.set(`${first}/${id}/${iat}`, await proof(es256, { claims: { nonce: first, iat, jti: id } }));
      }
      signed.set(
        `made-up/d/${NOW + 600}`,
        await proof(es256, { claims: { nonce: 'made-up', iat: NOW + 600 } }),
      );
    });
  });
});

describe(DpopReplayCache.name, () => {
  it('forgets an id once the window has passed', () => {
    const cache = new DpopReplayCache(65, 10, 5);

    expect(cache.claim('a', NOW)).toBe(true);
    expect(cache.claim('a', NOW + 65)).toBe(false);
    expect(cache.claim('a', NOW + 76)).toBe(true);
  });

  it('keeps memory to the ids of the window', () => {
    const cache = new DpopReplayCache(65, 1_000_000, 5);
    for (let second = 0; second < 600; second++) cache.claim(`id-${second}`, NOW + second);

    expect(cache.size).toBeLessThanOrEqual(80);
  });

  it('refuses new ids when full rather than forget one early (fail closed)', () => {
    const cache = new DpopReplayCache(65, 2, 5);
    cache.claim('a', NOW);
    cache.claim('b', NOW);

    expect(cache.claim('c', NOW)).toBe(false);
  });
});

describe(jwkThumbprint.name, () => {
  it("is RFC 7638 section 3.1's example", () => {
    const jwk = {
      kty: 'RSA',
      n: '0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3oknjhMstn64tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbISD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw',
      e: 'AQAB',
      alg: 'RS256',
      kid: '2011-04-29',
    };

    expect(jwkThumbprint(jwk)).toBe('NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs');
  });

  it('is undefined for an unknown key type or a missing member', () => {
    expect(jwkThumbprint({ kty: 'oct', k: 'abc' })).toBeUndefined();
    expect(jwkThumbprint({ kty: 'EC', crv: 'P-256', x: 'abc' })).toBeUndefined();
  });
});
