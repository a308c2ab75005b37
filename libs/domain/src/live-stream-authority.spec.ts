import { DenyList } from './revocation/deny-list';
import { type LiveStreamEnd, LiveStreamAuthority, type StreamClaims } from './live-stream-authority';

const NOW_MS = Date.parse('2026-05-21T10:00:00.000Z');
const NOW = NOW_MS / 1000;

const claims = (change: Partial<StreamClaims> = {}): StreamClaims => ({
  jti: 'j-1',
  client_id: 'dashboard',
  sub: 'u-1',
  iat: NOW - 10,
  grant_id: 'g-1',
  exp: NOW + 60,
  ...change,
});

const entry = (kind: string, value: string, created_at = NOW) => ({
  seq: 1,
  kind,
  value,
  created_at,
  expires_at: NOW + 3600,
});

describe(LiveStreamAuthority.name, () => {
  let authority: LiveStreamAuthority;
  let ends: LiveStreamEnd[];
  const hold = (change: Partial<StreamClaims> = {}) =>
    authority.hold(claims(change), (why) => ends.push(why));

  beforeEach(() => {
    jest.useFakeTimers({ now: NOW_MS });
    authority = new LiveStreamAuthority();
    ends = [];
  });
  afterEach(() => jest.useRealTimers());

  it('ends a stream when its token expires, not a moment before', () => {
    hold({ exp: NOW + 5 });

    jest.advanceTimersByTime(4_999);
    expect(ends).toEqual([]);
    jest.advanceTimersByTime(1);
    expect(ends).toEqual(['token_expired']);
    expect(authority.size).toBe(0);
  });

  it('ends at once a stream whose token has already expired', () => {
    hold({ exp: NOW });

    expect(ends).toEqual(['token_expired']);
  });

  it('waits for an expiry beyond the longest timer in steps', () => {
    hold({ exp: NOW + 30 * 24 * 3600 });

    jest.advanceTimersByTime(2 ** 31 - 1);
    expect(ends).toEqual([]);
    jest.advanceTimersByTime(30 * 24 * 3600 * 1000 - (2 ** 31 - 1));
    expect(ends).toEqual(['token_expired']);
  });

  it.each([
    ['jti', 'j-1', 'token_revoked'],
    ['grant', 'g-1', 'grant_revoked'],
    ['client', 'dashboard', 'app_deleted'],
    ['subject', 'u-1', 'user_deprovisioned'],
    ['newer-kind', 'x', 'token_revoked'],
  ])('ends the streams a %s entry denies, naming why', (kind, value, why) => {
    hold();
    hold({ jti: 'j-2', client_id: 'other', sub: 'u-2', grant_id: 'g-2' });

    authority.revoked(entry(kind, value));

    expect(ends).toEqual(kind === 'newer-kind' ? [why, why] : [why]);
  });

  it('keeps a stream whose token was issued after its app was deleted or its user deprovisioned', () => {
    hold({ iat: NOW + 1 });

    authority.revoked(entry('client', 'dashboard', NOW));
    authority.revoked(entry('subject', 'u-1', NOW));

    expect(ends).toEqual([]);
  });

  it('judges every stream against a whole deny-list', () => {
    hold();
    hold({ jti: 'j-2', client_id: 'other', sub: 'u-2', grant_id: 'g-2' });

    authority.judge([entry('jti', 'nobody'), entry('subject', 'u-2')]);

    expect(ends).toEqual(['user_deprovisioned']);
  });

  it('follows a deny-list: its new entries end streams, and a stream it already denies ends when held', () => {
    const denyList = new DenyList();
    authority.follow(denyList);
    hold();

    denyList.apply({ ...entry('client', 'dashboard'), kind: 'client' });
    expect(ends).toEqual(['app_deleted']);

    hold();
    expect(ends).toEqual(['app_deleted', 'app_deleted']);
  });

  it('ends each stream once, and never after it was released', () => {
    const release = hold({ exp: NOW + 5 });
    hold({ exp: NOW + 5 });

    release();
    authority.revoked(entry('jti', 'j-1'));
    jest.advanceTimersByTime(5_000);

    expect(ends).toEqual(['token_revoked']);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('ends every stream for one reason', () => {
    hold();
    hold({ jti: 'j-2' });

    authority.endAll('revocations_unavailable');

    expect(ends).toEqual(['revocations_unavailable', 'revocations_unavailable']);
    expect(jest.getTimerCount()).toBe(0);
  });
});
