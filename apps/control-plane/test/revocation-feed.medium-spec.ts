import { openDataSource, TypeOrmStores } from '@platform/persistence';
import type { RevocationEntry, RevocationInput, Stores } from '@platform/domain';
import type { DataSource } from 'typeorm';
import { RevocationFeed } from '../src/platform/revocation-feed';

const hourFromNow = () => new Date(Date.now() + 3_600_000);
const jti = (value: string): RevocationInput => ({ kind: 'jti', value, expiresAt: hourFromNow() });

async function until(condition: () => boolean, timeoutMs = 2000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met');
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe(RevocationFeed.name, () => {
  let dataSource: DataSource;
  let stores: Stores;
  let feed: RevocationFeed;
  const unsubscribers: Array<() => void> = [];

  beforeEach(async () => {
    dataSource = await openDataSource('sqlite::memory:');
    stores = TypeOrmStores.forDataSource(dataSource);
    feed = new RevocationFeed(stores);
  });
  afterEach(async () => {
    unsubscribers.splice(0).forEach((u) => u());
    feed.onApplicationShutdown();
    await dataSource.destroy();
  });

  async function subscribe(after: number): Promise<RevocationEntry[]> {
    const received: RevocationEntry[] = [];
    unsubscribers.push(await feed.subscribe(after, (e) => received.push(e)));
    return received;
  }

  it('sends the entries after the cursor first, then each new one once', async () => {
    const [first] = await stores.revocations.addRevocations([jti('a'), jti('b')], new Date());
    const received = await subscribe(first.seq);
    expect(received.map((e) => e.value)).toEqual(['b']);

    await stores.revocations.addRevocations([jti('c')], new Date());
    feed.wake();
    feed.wake();
    await until(() => received.length === 2);
    await new Promise((r) => setTimeout(r, 300));
    expect(received.map((e) => e.value)).toEqual(['b', 'c']);
  });

  it('delivers entries written elsewhere (another replica) without a wake, by polling', async () => {
    const received = await subscribe(0);
    await stores.revocations.addRevocations([jti('from-another-replica')], new Date());
    await until(() => received.length === 1, 1000);
    expect(received[0]).toMatchObject({ kind: 'jti', value: 'from-another-replica' });
  });

  it('gives every subscriber the same entries whatever cursor it started from', async () => {
    await stores.revocations.addRevocations([jti('old')], new Date());
    const fromStart = await subscribe(0);
    const fromNow = await subscribe(1);
    await stores.revocations.addRevocations([jti('new')], new Date());
    feed.wake();
    await until(() => fromStart.length === 2 && fromNow.length === 1);
    expect(fromStart.map((e) => e.value)).toEqual(['old', 'new']);
    expect(fromNow.map((e) => e.value)).toEqual(['new']);
  });

  it('reports times in Unix seconds', async () => {
    const expiresAt = new Date('2030-01-01T00:00:00Z');
    await stores.revocations.addRevocations([{ kind: 'client', value: 'gone', expiresAt }], new Date());
    const [entry] = await subscribe(0);
    expect(entry.expires_at).toBe(Math.floor(expiresAt.getTime() / 1000));
    expect(entry.created_at).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
  });
});
