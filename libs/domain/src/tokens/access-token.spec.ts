import { createHmac, createPublicKey } from 'node:crypto';
import { decodeJwt, decodeProtectedHeader, SignJWT, type JWTPayload } from 'jose';
import { SigningKeyRing } from '../keys/signing-key-ring';
import { ManualClock } from '../clock';
import {
  aSigningKeyRecord,
  InMemoryStores,
  InMemoryTransactor,
  signingKeyRingOn,
  TEST_ISSUER,
  TEST_START,
} from '../testing/in-memory-stores';
import {
  ACCESS_TOKEN_LIFETIME_SECONDS,
  JwtAccessTokenStrategy,
  type AccessTokenClaims,
} from './access-token';

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

async function setUp() {
  const clock = new ManualClock();
  const stores = new InMemoryStores();
  const ring = signingKeyRingOn(stores, new InMemoryTransactor(stores), clock);
  await ring.load();
  const strategy = new JwtAccessTokenStrategy(
    ring,
    { issuer: TEST_ISSUER, lifetimeSeconds: ACCESS_TOKEN_LIFETIME_SECONDS },
    clock,
  );
  const issued = await strategy.issue({
    clientId: 'reports-worker',
    subject: 'reports-worker',
    scopes: ['jobs.read', 'files.read'],
  });
  const [stored] = await stores.signingKeys.listSigningKeys();
  return { clock, ring, strategy, issued, kid: stored.kid, publicJwk: stored.publicJwk };
}

/** Signs arbitrary claims with the ring's own private key under the given header. */
async function signWithRing(
  ring: SigningKeyRing,
  claims: AccessTokenClaims,
  header: Record<string, unknown>,
) {
  const { kid, privateKey } = ring.signingKey();
  return new SignJWT(claims as unknown as JWTPayload)
    .setProtectedHeader({ alg: 'RS256', kid, ...header })
    .sign(privateKey);
}

describe(JwtAccessTokenStrategy.name, () => {
  it('issues a JWT with header alg RS256, typ at+jwt and the signing kid', async () => {
    const { issued, kid } = await setUp();
    expect(decodeProtectedHeader(issued.token)).toEqual({ alg: 'RS256', typ: 'at+jwt', kid });
  });

  it('issues the RFC 9068 claims, expiring 3600 s after issue', async () => {
    const { issued } = await setUp();
    const iat = TEST_START.getTime() / 1000;
    const claims = decodeJwt(issued.token);
    expect(claims).toEqual({
      iss: TEST_ISSUER,
      sub: 'reports-worker',
      aud: TEST_ISSUER,
      exp: iat + 3600,
      iat,
      jti: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
      client_id: 'reports-worker',
      scope: 'jobs.read files.read',
    });
    expect(issued.claims).toEqual(claims);
    // Time-ordered (token-id.ts): the jti starts with the issue time in milliseconds.
    expect(Buffer.from(issued.claims.jti, 'base64url').readUIntBE(0, 6)).toBe(TEST_START.getTime());
  });

  it('adds tenant, roles and grant_id for a user token', async () => {
    const { strategy } = await setUp();
    const { token } = await strategy.issue({
      clientId: 'web-portal',
      subject: 'user-1',
      scopes: ['jobs.read'],
      user: { tenant: 'acme', roles: ['viewer'], grantId: 'grant-1' },
    });
    expect(decodeJwt(token)).toMatchObject({
      sub: 'user-1',
      tenant: 'acme',
      roles: ['viewer'],
      grant_id: 'grant-1',
    });
  });

  it('gives every token its own jti', async () => {
    const { strategy, issued } = await setUp();
    const other = await strategy.issue({ clientId: 'reports-worker', subject: 'reports-worker', scopes: [] });
    expect(other.claims.jti).not.toBe(issued.claims.jti);
  });

  it('verifies its own token and returns the claims', async () => {
    const { strategy, issued } = await setUp();
    await expect(strategy.verify(issued.token)).resolves.toEqual(issued.claims);
  });

  it('rejects a token whose payload was tampered with', async () => {
    const { strategy, issued } = await setUp();
    const [header, , signature] = issued.token.split('.');
    const forged = `${header}.${b64url({ ...issued.claims, scope: 'admin.*' })}.${signature}`;
    await expect(strategy.verify(forged)).resolves.toBeNull();
  });

  it('rejects an unsecured token (alg none)', async () => {
    const { strategy, issued, kid } = await setUp();
    const unsecured = `${b64url({ alg: 'none', typ: 'at+jwt', kid })}.${b64url(issued.claims)}.`;
    await expect(strategy.verify(unsecured)).resolves.toBeNull();
  });

  it('rejects HS256 signed with the public key as PEM bytes (algorithm confusion)', async () => {
    const { strategy, issued, kid, publicJwk } = await setUp();
    const pem = createPublicKey({ key: JSON.parse(publicJwk), format: 'jwk' }).export({
      type: 'spki',
      format: 'pem',
    });
    const signingInput = `${b64url({ alg: 'HS256', typ: 'at+jwt', kid })}.${b64url(issued.claims)}`;
    const forged = `${signingInput}.${createHmac('sha256', pem).update(signingInput).digest('base64url')}`;
    await expect(strategy.verify(forged)).resolves.toBeNull();
  });

  it('rejects HS256 signed with the published JWK bytes', async () => {
    const { strategy, ring, issued, kid } = await setUp();
    const jwkBytes = new TextEncoder().encode(JSON.stringify(ring.publicJwks().keys[0]));
    const forged = await new SignJWT(issued.claims as unknown as JWTPayload)
      .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt', kid })
      .sign(jwkBytes);
    await expect(strategy.verify(forged)).resolves.toBeNull();
  });

  it('rejects a token signed by a key it does not know, and one without a kid', async () => {
    const { strategy, clock, issued } = await setUp();
    const strangers = new InMemoryStores();
    await strangers.signingKeys.insertSigningKey(await aSigningKeyRecord(TEST_START));
    const stranger = signingKeyRingOn(strangers, new InMemoryTransactor(strangers), clock);
    await stranger.load();
    const foreign = await signWithRing(stranger, issued.claims, { typ: 'at+jwt' });
    await expect(strategy.verify(foreign)).resolves.toBeNull();

    const { privateKey } = stranger.signingKey();
    const noKid = await new SignJWT(issued.claims as unknown as JWTPayload)
      .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt' })
      .sign(privateKey);
    await expect(strategy.verify(noKid)).resolves.toBeNull();
  });

  it('rejects a token signed with a known key under an unknown kid', async () => {
    const { strategy, ring, issued } = await setUp();
    const token = await signWithRing(ring, issued.claims, { typ: 'at+jwt', kid: 'not-a-published-kid' });
    await expect(strategy.verify(token)).resolves.toBeNull();
  });

  it('accepts a token until its exp and rejects it from then on', async () => {
    const { strategy, clock, issued } = await setUp();
    clock.advanceSeconds(ACCESS_TOKEN_LIFETIME_SECONDS - 1);
    await expect(strategy.verify(issued.token)).resolves.not.toBeNull();
    clock.advanceSeconds(1);
    await expect(strategy.verify(issued.token)).resolves.toBeNull();
  });

  it('accepts an expired token when asked to (revocation)', async () => {
    const { strategy, clock, issued } = await setUp();
    clock.advanceSeconds(2 * ACCESS_TOKEN_LIFETIME_SECONDS);
    await expect(strategy.verify(issued.token, { allowExpired: true })).resolves.toEqual(issued.claims);
  });

  it('rejects a token signed with our key but typed as a plain JWT', async () => {
    const { strategy, ring, issued } = await setUp();
    await expect(
      strategy.verify(await signWithRing(ring, issued.claims, { typ: 'JWT' })),
    ).resolves.toBeNull();
    await expect(strategy.verify(await signWithRing(ring, issued.claims, {}))).resolves.toBeNull();
  });

  it('rejects a token signed with our key for another issuer, and leaves the audience to the caller', async () => {
    const { strategy, ring, issued } = await setUp();
    const otherIssuer = await signWithRing(
      ring,
      { ...issued.claims, iss: 'https://evil.example' },
      { typ: 'at+jwt' },
    );
    const otherAudience = await signWithRing(
      ring,
      { ...issued.claims, aud: 'https://api.other.example' },
      { typ: 'at+jwt' },
    );
    await expect(strategy.verify(otherIssuer)).resolves.toBeNull();
    // Introspection, revocation and exchange serve the tokens of every resource (RFC 8707);
    // AccessTokenValidator holds the platform API to its own audience.
    await expect(strategy.verify(otherAudience)).resolves.toMatchObject({ aud: 'https://api.other.example' });
  });

  it('rejects a token signed with our key that lacks a required claim', async () => {
    const { strategy, ring, issued } = await setUp();
    const withoutClientId: Partial<AccessTokenClaims> = { ...issued.claims };
    delete withoutClientId.client_id;
    const token = await signWithRing(ring, withoutClientId as AccessTokenClaims, { typ: 'at+jwt' });
    await expect(strategy.verify(token)).resolves.toBeNull();
  });

  it('judges what the synchronous check leaves aside as jose does: a typ in media-type form, nbf', async () => {
    const { strategy, ring, issued, clock } = await setUp();
    const mediaType = await signWithRing(ring, issued.claims, { typ: 'application/at+jwt' });
    const withNbf = (nbf: number) =>
      signWithRing(ring, { ...issued.claims, nbf } as AccessTokenClaims, { typ: 'at+jwt' });
    const notYet = await withNbf(issued.claims.iat + 60);
    const wasNotYet = await withNbf(issued.claims.iat);

    await expect(strategy.verify(mediaType)).resolves.toEqual(issued.claims);
    await expect(strategy.verify(notYet)).resolves.toBeNull();
    await expect(strategy.verify(wasNotYet)).resolves.toMatchObject({ nbf: issued.claims.iat });
    clock.advanceSeconds(2 * ACCESS_TOKEN_LIFETIME_SECONDS);
    // Revocation checks at the epoch (jose's currentDate 0), where any nbf is still to come.
    await expect(strategy.verify(wasNotYet, { allowExpired: true })).resolves.toBeNull();
  });

  it('answers null for strings that are not JWTs at all', async () => {
    const { strategy } = await setUp();
    await expect(strategy.verify('')).resolves.toBeNull();
    await expect(strategy.verify('not-a-jwt')).resolves.toBeNull();
    await expect(strategy.verify('a.b.c')).resolves.toBeNull();
  });
});
