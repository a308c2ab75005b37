import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { compactVerify, decodeProtectedHeader, jwtVerify } from 'jose';
import { rs256PrivateKey, signRs256 } from './jws';

const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const jwkOf = (key: KeyObject) => key.export({ format: 'jwk' });
const HEADER = { alg: 'RS256', typ: 'at+jwt', kid: 'key-1' } as const;

describe(signRs256.name, () => {
  it('produces a compact JWS that jose verifies with the public key', async () => {
    const claims = { sub: 'reports-worker', scope: 'jobs.read', iat: 1_700_000_000, exp: 4_000_000_000 };
    const token = await signRs256(HEADER, claims, rs256PrivateKey(jwkOf(rsa.privateKey)));

    const { payload, protectedHeader } = await jwtVerify(token, rsa.publicKey, {
      algorithms: ['RS256'],
      typ: 'at+jwt',
    });
    expect(protectedHeader).toEqual(HEADER);
    expect(payload).toEqual(claims);
  });

  it('keeps non-ASCII claims intact (UTF-8, RFC 7515 section 7.1)', async () => {
    const token = await signRs256(HEADER, { name: 'Zoë 🚀' }, rsa.privateKey);
    const { payload } = await compactVerify(token, rsa.publicKey);
    expect(JSON.parse(new TextDecoder().decode(payload))).toEqual({ name: 'Zoë 🚀' });
  });

  it('signs with the given key only: another key does not verify it', async () => {
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const token = await signRs256(HEADER, { sub: 'x' }, rsa.privateKey);
    expect(decodeProtectedHeader(token)).toEqual(HEADER);
    await expect(compactVerify(token, other.publicKey)).rejects.toThrow('signature verification failed');
  });
});

describe(rs256PrivateKey.name, () => {
  it('refuses an EC key', () => {
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    expect(() => rs256PrivateKey(jwkOf(ec.privateKey))).toThrow('RSA key of at least 2048 bits');
  });

  it('refuses an RSA key under 2048 bits', () => {
    const small = generateKeyPairSync('rsa', { modulusLength: 1024 });
    expect(() => rs256PrivateKey(jwkOf(small.privateKey))).toThrow('RSA key of at least 2048 bits');
  });

  it('refuses a public key', () => {
    expect(() => rs256PrivateKey(jwkOf(rsa.publicKey))).toThrow();
  });
});
