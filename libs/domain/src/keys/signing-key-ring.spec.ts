import { jwtVerify } from 'jose';
import { ACCESS_TOKEN_LIFETIME_SECONDS, JwtAccessTokenStrategy } from '../tokens/access-token';
import { ManualClock } from '../clock';
import { AuditTrail } from '../audit/audit-trail';
import {
  InMemoryStores,
  InMemoryTransactor,
  signingKeyRingOn,
  TEST_ENVELOPE,
  TEST_ISSUER,
} from '../testing/in-memory-stores';
import { Envelope } from '../secrets/envelope';
import { openPrivateJwk } from './sealed-private-key';
import { SigningKeyRing } from './signing-key-ring';

function setUp() {
  const clock = new ManualClock();
  const stores = new InMemoryStores();
  const store = stores.signingKeys;
  const ring = signingKeyRingOn(stores, new InMemoryTransactor(stores), clock);
  const tokens = new JwtAccessTokenStrategy(
    ring,
    { issuer: TEST_ISSUER, lifetimeSeconds: ACCESS_TOKEN_LIFETIME_SECONDS },
    clock,
  );
  const issue = () =>
    tokens.issue({ clientId: 'reports-worker', subject: 'reports-worker', scopes: ['jobs.read'] });
  return { clock, stores, store, ring, tokens, issue };
}

describe('SigningKeyRing', () => {
  it('refuses to sign before the keys are loaded', () => {
    const { ring } = setUp();
    expect(() => ring.signingKey()).toThrow('signing keys not loaded');
  });

  it('creates and stores a key on first load, and only then', async () => {
    const { store, ring } = setUp();
    await ring.load();
    expect(store.kids()).toEqual([ring.signingKey().kid]);
    await ring.load();
    expect(store.kids()).toHaveLength(1);
  });

  it('stores the private key sealed by the envelope, never in the clear', async () => {
    const { store, ring } = setUp();
    await ring.load();
    const [stored] = await store.listSigningKeys();
    const { d } = openPrivateJwk(TEST_ENVELOPE, stored.kid, stored.privateJwk).jwk;

    expect(Object.keys(JSON.parse(stored.privateJwk))).toEqual(['sealed']);
    expect(stored.privateJwk).not.toContain(d);
  });

  it('seals a key an earlier release stored in the clear, and signs with it as before', async () => {
    const { store, ring, tokens, issue } = setUp();
    await ring.load();
    const [sealed] = await store.listSigningKeys();
    const clear = JSON.stringify(openPrivateJwk(TEST_ENVELOPE, sealed.kid, sealed.privateJwk).jwk);
    await store.replacePrivateJwk(sealed.kid, clear);

    await ring.load();
    const [resealed] = await store.listSigningKeys();
    expect(openPrivateJwk(TEST_ENVELOPE, resealed.kid, resealed.privateJwk).kekId).toBe(
      TEST_ENVELOPE.currentKekId,
    );
    await expect(tokens.verify((await issue()).token)).resolves.toBeTruthy();
  });

  it('rewraps every private key under a new KEK, once', async () => {
    const { stores, store, ring } = setUp();
    await ring.load();
    const next = new Envelope(Buffer.alloc(32, 9), [Buffer.alloc(32, 7)]);
    const rotated = new SigningKeyRing(
      stores.signingKeys,
      next,
      new InMemoryTransactor(stores),
      new AuditTrail(new ManualClock()),
      new ManualClock(),
      ACCESS_TOKEN_LIFETIME_SECONDS,
    );

    expect(await rotated.rewrap()).toBe(1);
    expect(await rotated.rewrap()).toBe(0);
    const [stored] = await store.listSigningKeys();
    expect(openPrivateJwk(new Envelope(Buffer.alloc(32, 9)), stored.kid, stored.privateJwk).kekId).toBe(
      next.currentKekId,
    );
  });

  it('publishes the public half only, as the key set entry of the spec', async () => {
    const { ring } = setUp();
    await ring.load();
    const { keys } = ring.publicJwks();
    expect(keys).toHaveLength(1);
    expect(Object.keys(keys[0]).sort()).toEqual(['alg', 'e', 'kid', 'kty', 'n', 'use']);
    expect(keys[0]).toMatchObject({ kty: 'RSA', use: 'sig', alg: 'RS256', kid: ring.signingKey().kid });
  });

  it('signs with the new key after rotation and still verifies tokens of the old one', async () => {
    const { clock, ring, tokens, issue } = setUp();
    await ring.load();
    const oldKid = ring.signingKey().kid;
    const before = await issue();

    clock.advanceSeconds(10);
    const { kid: newKid } = await ring.rotate();
    const after = await issue();

    expect(newKid).not.toBe(oldKid);
    expect(ring.signingKey().kid).toBe(newKid);
    expect(after.token.split('.')[0]).toBe(
      Buffer.from(JSON.stringify({ alg: 'RS256', typ: 'at+jwt', kid: newKid })).toString('base64url'),
    );
    await expect(tokens.verify(before.token)).resolves.toMatchObject({ jti: before.claims.jti });
    await expect(tokens.verify(after.token)).resolves.toMatchObject({ jti: after.claims.jti });
    expect(ring.publicJwks().keys.map((k) => k.kid)).toEqual([newKid, oldKid]);
  });

  it('audits a rotation with who made it, the new kid and the retired one', async () => {
    const { stores, ring } = setUp();
    await ring.load();
    const oldKid = ring.signingKey().kid;

    const { kid } = await ring.rotate({ kind: 'user', id: 'root' });

    expect(stores.audit.all()).toEqual([
      expect.objectContaining({
        actorKind: 'user',
        actorId: 'root',
        action: 'signing_key.rotated',
        target: kid,
        attributes: { retired: oldKid },
      }),
    ]);
  });

  it('writes the new kid to the revocation feed, which other replicas follow, until the old key is dropped', async () => {
    const { clock, stores, ring } = setUp();
    await ring.load();

    const { kid, createdAt } = await ring.rotate();

    await expect(stores.revocations.listRevocationsAfter(0, 10)).resolves.toEqual([
      {
        seq: 1,
        kind: 'signing_key',
        value: kid,
        createdAt,
        expiresAt: new Date(clock.now().getTime() + (ACCESS_TOKEN_LIFETIME_SECONDS + 60) * 1000),
      },
    ]);
  });

  it('lets another replica sharing the store pick up a rotation on its next load', async () => {
    const { clock, stores, ring } = setUp();
    await ring.load();
    const replica = signingKeyRingOn(stores, new InMemoryTransactor(stores), clock);
    await replica.load();
    clock.advanceSeconds(10);
    const { kid } = await ring.rotate();
    await replica.load();
    expect(replica.signingKey().kid).toBe(kid);
  });

  it('keeps a retired key for one token lifetime plus 60 s, then drops it', async () => {
    const { clock, store, ring, tokens, issue } = setUp();
    await ring.load();
    const oldKid = ring.signingKey().kid;
    const old = await issue();
    clock.advanceSeconds(10);
    const { kid: newKid } = await ring.rotate();

    clock.advanceSeconds(ACCESS_TOKEN_LIFETIME_SECONDS + 60);
    await ring.load();
    expect(ring.verificationKey(oldKid)).toBeDefined();

    clock.advanceSeconds(1);
    await ring.load();
    expect(ring.verificationKey(oldKid)).toBeUndefined();
    expect(store.kids()).toEqual([newKid]);
    expect(ring.publicJwks().keys.map((k) => k.kid)).toEqual([newKid]);
    await expect(tokens.verify(old.token, { allowExpired: true })).resolves.toBeNull();
  });

  it('exposes verification keys that check the signature of issued tokens with jose directly', async () => {
    const { ring, issue } = setUp();
    await ring.load();
    const { token } = await issue();
    const key = ring.verificationKey(ring.signingKey().kid);
    expect(key).toBeDefined();
    await expect(
      jwtVerify(token, key!, { algorithms: ['RS256'], currentDate: new Date('2026-05-21T10:00:00Z') }),
    ).resolves.toBeDefined();
  });

  it('has no verification key for a kid it never published', async () => {
    const { ring } = setUp();
    await ring.load();
    expect(ring.verificationKey('unknown-kid')).toBeUndefined();
  });

  describe('the scheduled rotation', () => {
    const NINETY_DAYS = 90 * 86_400;

    it('rotates once the signing key is older than the period, and audits it as the platform', async () => {
      const { clock, ring, stores } = setUp();
      await ring.load();
      const first = ring.signingKey().kid;

      clock.advanceSeconds(NINETY_DAYS - 1);
      await expect(ring.rotateIfOlderThan(NINETY_DAYS)).resolves.toBe(false);
      expect(ring.signingKey().kid).toBe(first);

      clock.advanceSeconds(1);
      await expect(ring.rotateIfOlderThan(NINETY_DAYS)).resolves.toBe(true);
      expect(ring.signingKey().kid).not.toBe(first);
      expect(stores.audit.all().at(-1)).toMatchObject({
        action: 'signing_key.rotated',
        actorKind: 'platform',
        attributes: { retired: first },
      });
      // The new key starts a new period.
      await expect(ring.rotateIfOlderThan(NINETY_DAYS)).resolves.toBe(false);
    });

    it('counts a rotation another replica made', async () => {
      const { clock, stores } = setUp();
      const transactor = new InMemoryTransactor(stores);
      const [one, two] = [
        signingKeyRingOn(stores, transactor, clock),
        signingKeyRingOn(stores, transactor, clock),
      ];
      await one.load();
      await two.load();
      clock.advanceSeconds(NINETY_DAYS);
      await expect(one.rotateIfOlderThan(NINETY_DAYS)).resolves.toBe(true);
      await expect(two.rotateIfOlderThan(NINETY_DAYS)).resolves.toBe(false);
    });
  });
});
