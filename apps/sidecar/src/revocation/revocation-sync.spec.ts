import { Logger } from '@nestjs/common';
import { Readiness } from '../health/readiness';
import { eventually } from '../testing/eventually';
import { FakeControlPlane } from '../testing/fake-control-plane';
import { ManualClock } from '@platform/domain';
import { testConfig } from '../testing/test-config';
import { DenyList } from '@platform/domain';
import { RevocationSync, SYNC_PAGE_SIZE } from './revocation-sync';

describe(RevocationSync.name, () => {
  let controlPlane: FakeControlPlane;
  let denyList: DenyList;
  let readiness: Readiness;
  let clock: ManualClock;
  let sync: RevocationSync;

  beforeAll(() => Logger.overrideLogger(false));

  beforeEach(() => {
    controlPlane = new FakeControlPlane();
    denyList = new DenyList();
    readiness = new Readiness();
    // The other parts of readiness, so it waits on the deny-list alone.
    readiness.markLoaded('keys');
    readiness.markLoaded('definitions');
    clock = new ManualClock();
  });

  afterEach(async () => {
    await sync.onApplicationShutdown();
  });

  const start = (pollMs = 30_000) => {
    sync = new RevocationSync(
      controlPlane,
      denyList,
      testConfig({ revocationPollMs: pollMs }),
      clock,
      readiness,
    );
    sync.onApplicationBootstrap();
  };
  const claimsOf = (jti: string) => ({ jti, client_id: 'reports', iat: clock.seconds - 10 });

  it('loads the live deny-list at start, then reports it loaded', async () => {
    controlPlane.revoke('jti', 'jti-1', { createdAt: clock.seconds });

    start();
    await readiness.whenReady();

    expect(denyList.revocationOf(claimsOf('jti-1'))).toBe('jti');
    expect(denyList.lastSeq).toBe(1);
  });

  it('keeps retrying the first load while the control plane is down', async () => {
    controlPlane.reachable = false;
    start();
    await eventually(() => expect(controlPlane.calls.active).toBeGreaterThanOrEqual(2));
    expect(readiness.ready).toBe(false);

    controlPlane.reachable = true;

    await readiness.whenReady();
  });

  it('applies revocations from the stream as the control plane publishes them', async () => {
    start();
    await readiness.whenReady();
    await eventually(() => expect(controlPlane.calls.streams).toBe(1));

    controlPlane.revoke('jti', 'jti-live', { createdAt: clock.seconds });

    await eventually(() => expect(denyList.revocationOf(claimsOf('jti-live'))).toBe('jti'));
  });

  it('reconnects a dropped stream from the last seq it applied', async () => {
    start();
    await readiness.whenReady();
    controlPlane.revoke('jti', 'a', { createdAt: clock.seconds });
    controlPlane.revoke('jti', 'b', { createdAt: clock.seconds });
    await eventually(() => expect(denyList.lastSeq).toBe(2));

    controlPlane.breakStreams();
    controlPlane.revoke('jti', 'c', { createdAt: clock.seconds });

    await eventually(() => expect(controlPlane.streamsOpenedAfter).toEqual([0, 2]));
    await eventually(() => expect(denyList.revocationOf(claimsOf('c'))).toBe('jti'));
  });

  it('pulls what is new on demand and answers the new last seq', async () => {
    controlPlane.streaming = false;
    start();
    await readiness.whenReady();
    controlPlane.revoke('grant', 'grant-1', { createdAt: clock.seconds });

    await expect(sync.syncNow()).resolves.toBe(1);
    expect(denyList.revocationOf({ ...claimsOf('x'), grant_id: 'grant-1' })).toBe('grant');
  });

  it('pages through a backlog larger than one page', async () => {
    controlPlane.streaming = false;
    start();
    await readiness.whenReady();
    for (let i = 0; i <= SYNC_PAGE_SIZE; i++)
      controlPlane.revoke('jti', `jti-${i}`, { createdAt: clock.seconds });

    await expect(sync.syncNow()).resolves.toBe(SYNC_PAGE_SIZE + 1);
    expect(controlPlane.calls.after).toBe(2);
  });

  it('re-reads the whole list periodically, catching what a broken stream missed', async () => {
    controlPlane.streaming = false;
    start(50);
    await readiness.whenReady();

    controlPlane.revoke('client', 'reports', { createdAt: clock.seconds });

    await eventually(() => expect(denyList.revocationOf(claimsOf('any'))).toBe('client'));
  });

  it('prunes expired entries when it re-reads the list', async () => {
    controlPlane.streaming = false;
    controlPlane.revoke('jti', 'short-lived', { createdAt: clock.seconds, expiresAt: clock.seconds + 60 });
    start(50);
    await readiness.whenReady();
    controlPlane.resetFeed();

    clock.advance(61_000);

    await eventually(() => expect(denyList.size).toBe(0));
  });

  it('follows a feed that restarted below its seq (fresh control plane database)', async () => {
    controlPlane.streaming = false;
    controlPlane.revoke('jti', 'a', { createdAt: clock.seconds });
    controlPlane.revoke('jti', 'b', { createdAt: clock.seconds });
    start();
    await readiness.whenReady();
    controlPlane.resetFeed();
    controlPlane.revoke('jti', 'fresh', { createdAt: clock.seconds });

    await sync.reloadActive();

    expect(denyList.lastSeq).toBe(1);
    expect(denyList.revocationOf(claimsOf('fresh'))).toBe('jti');
  });
});
