import { randomBytes } from 'node:crypto';
import { AuditTrail, Envelope, SigningKeyRing, systemClock } from '@platform/domain';
import { databaseDrivers, type SqlTestDatabase } from '../../../libs/persistence/test/support/drivers';
import { RevocationFeed } from '../src/platform/revocation-feed';
import { SigningKeyFollower } from '../src/platform/signing-key-follower';

async function until(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met');
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Control-plane replicas on one database, each with its own key ring and feed, as in production. */
describe.each(databaseDrivers())('signing key rotation across replicas on $name', (driver) => {
  let database: SqlTestDatabase;
  const envelope = new Envelope(randomBytes(32));
  const stops: Array<() => void> = [];

  beforeAll(async () => {
    database = await driver.open();
  });
  afterAll(async () => {
    stops.splice(0).forEach((stop) => stop());
    await database?.dispose();
  });

  /** What a replica's start does: follow the rotations, then load the keys. */
  async function startReplica(): Promise<SigningKeyRing> {
    const { stores, transactor } = database;
    const trail = new AuditTrail(systemClock);
    const keys = new SigningKeyRing(stores.signingKeys, envelope, transactor, trail, systemClock, 300);
    const feed = new RevocationFeed(stores);
    const follower = new SigningKeyFollower(stores, feed, keys);
    stops.push(
      () => follower.onApplicationShutdown(),
      () => feed.onApplicationShutdown(),
    );
    await follower.follow();
    await keys.load();
    return keys;
  }

  it("signs and publishes another replica's new key within the feed's poll, not at the 30 s reload", async () => {
    const rotating = await startReplica();
    const other = await startReplica();
    const old = other.signingKey().kid;
    expect(rotating.signingKey().kid).toBe(old);

    const { kid } = await rotating.rotate();

    await until(() => other.signingKey().kid === kid, 2_000);
    expect(
      other
        .publicJwks()
        .keys.map((key) => key.kid)
        .sort(),
    ).toEqual([kid, old].sort());
    expect(other.verificationKey(kid)).toBeDefined();
  });
});
