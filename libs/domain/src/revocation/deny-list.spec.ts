import type { RevocableActor, RevocationEntry } from './revocation-entry';
import { DenyList } from './deny-list';

const NOW = 1_800_000_000;
let seq = 0;
const entry = (
  kind: RevocationEntry['kind'],
  value: string,
  createdAt = NOW,
  expiresAt = NOW + 3600,
): RevocationEntry => ({
  seq: ++seq,
  kind,
  value,
  created_at: createdAt,
  expires_at: expiresAt,
});
const claims = (
  overrides: Partial<{
    jti: string;
    client_id: string;
    sub: string;
    iat: number;
    grant_id: string;
    act: RevocableActor | null;
  }> = {},
) => ({
  jti: 'jti-1',
  client_id: 'reports',
  iat: NOW - 10,
  ...overrides,
});

describe(DenyList.name, () => {
  let denyList: DenyList;

  beforeEach(() => {
    denyList = new DenyList();
  });

  it('denies nothing when empty', () => {
    expect(denyList.revocationOf(claims())).toBeUndefined();
  });

  it('denies the one token whose jti was revoked', () => {
    denyList.apply(entry('jti', 'jti-1'));

    expect(denyList.revocationOf(claims())).toBe('jti');
    expect(denyList.revocationOf(claims({ jti: 'jti-2' }))).toBeUndefined();
  });

  it('denies every token of a grant whose grant_id was revoked', () => {
    denyList.apply(entry('grant', 'grant-7'));

    expect(denyList.revocationOf(claims({ jti: 'a', grant_id: 'grant-7' }))).toBe('grant');
    expect(denyList.revocationOf(claims({ jti: 'b', grant_id: 'grant-7' }))).toBe('grant');
    expect(denyList.revocationOf(claims({ grant_id: 'grant-8' }))).toBeUndefined();
    expect(denyList.revocationOf(claims())).toBeUndefined();
  });

  describe('subject revocation (user deprovisioned)', () => {
    beforeEach(() => denyList.apply(entry('subject', 'user-9', NOW)));

    it('denies every token of the user issued at or before the entry, from any client', () => {
      expect(denyList.revocationOf(claims({ sub: 'user-9', iat: NOW }))).toBe('subject');
      expect(denyList.revocationOf(claims({ sub: 'user-9', client_id: 'other', iat: NOW - 60 }))).toBe(
        'subject',
      );
    });

    it('accepts a token issued after the entry (the user was provisioned again) and other users', () => {
      expect(denyList.revocationOf(claims({ sub: 'user-9', iat: NOW + 1 }))).toBeUndefined();
      expect(denyList.revocationOf(claims({ sub: 'user-8', iat: NOW - 1 }))).toBeUndefined();
    });

    it('denies a token issued in the name of the user, at any depth of its actor chain', () => {
      const impersonated = claims({ sub: 'user-1', iat: NOW, act: { sub: 'user-9' } });
      const delegated = claims({ sub: 'user-1', iat: NOW, act: { sub: 'gateway', act: { sub: 'user-9' } } });

      expect(denyList.revocationOf(impersonated)).toBe('subject');
      expect(denyList.revocationOf(delegated)).toBe('subject');
    });

    it('accepts a token an actor acted in after the entry, or whose actors are others', () => {
      expect(denyList.revocationOf(claims({ sub: 'user-1', iat: NOW + 1, act: { sub: 'user-9' } }))).toBe(
        undefined,
      );
      expect(denyList.revocationOf(claims({ sub: 'user-1', iat: NOW, act: { sub: 'user-8' } }))).toBe(
        undefined,
      );
      expect(denyList.revocationOf(claims({ sub: 'user-1', iat: NOW, act: null }))).toBeUndefined();
    });

    it('is copied with its instant and pruned after its expiry', () => {
      expect(denyList.entries()).toContainEqual(
        expect.objectContaining({ kind: 'subject', value: 'user-9', created_at: NOW }),
      );
      expect(denyList.prune(NOW + 3601)).toBe(1);
      expect(denyList.revocationOf(claims({ sub: 'user-9', iat: NOW }))).toBeUndefined();
    });
  });

  describe('client revocation (app deleted)', () => {
    beforeEach(() => denyList.apply(entry('client', 'reports', NOW)));

    it('denies a token issued before the deletion', () => {
      expect(denyList.revocationOf(claims({ iat: NOW - 1 }))).toBe('client');
    });

    it('denies a token issued in the same second as the deletion (iat <= created_at)', () => {
      expect(denyList.revocationOf(claims({ iat: NOW }))).toBe('client');
    });

    it('accepts a token issued after the deletion, e.g. by an app registered again under that client_id', () => {
      expect(denyList.revocationOf(claims({ iat: NOW + 1 }))).toBeUndefined();
    });

    it('leaves the tokens of other clients alone', () => {
      expect(denyList.revocationOf(claims({ client_id: 'billing' }))).toBeUndefined();
    });

    it('keeps the latest deletion when a client is deleted twice', () => {
      denyList.apply(entry('client', 'reports', NOW + 100));
      denyList.apply(entry('client', 'reports', NOW - 100));

      expect(denyList.revocationOf(claims({ iat: NOW + 50 }))).toBe('client');
    });
  });

  it('tracks the highest seq applied, whatever the order entries arrive in', () => {
    const first = entry('jti', 'a');
    const second = entry('jti', 'b');

    denyList.apply(second);
    denyList.apply(first);

    expect(denyList.lastSeq).toBe(second.seq);
  });

  it('applies a page and moves to its last_seq even when the page is empty', () => {
    denyList.applyPage([], 42);

    expect(denyList.lastSeq).toBe(42);
  });

  it('is unchanged by applying the same entry twice', () => {
    const revoked = entry('jti', 'jti-1');
    denyList.apply(revoked);
    denyList.apply(revoked);

    expect(denyList.size).toBe(1);
  });

  describe('pruning', () => {
    it('drops each kind once its expires_at has passed', () => {
      denyList.apply(entry('jti', 'jti-1', NOW, NOW + 10));
      denyList.apply(entry('grant', 'grant-7', NOW, NOW + 10));
      denyList.apply(entry('client', 'reports', NOW, NOW + 10));

      expect(denyList.prune(NOW + 11)).toBe(3);
      expect(denyList.size).toBe(0);
      expect(denyList.revocationOf(claims({ grant_id: 'grant-7' }))).toBeUndefined();
    });

    it('keeps an entry up to and including its expires_at', () => {
      denyList.apply(entry('jti', 'jti-1', NOW, NOW + 10));

      expect(denyList.prune(NOW + 10)).toBe(0);
      expect(denyList.revocationOf(claims())).toBe('jti');
    });

    it('keeps entries that have not expired while dropping those that have', () => {
      denyList.apply(entry('jti', 'old', NOW, NOW + 10));
      denyList.apply(entry('jti', 'jti-1', NOW, NOW + 3600));

      denyList.prune(NOW + 60);

      expect(denyList.size).toBe(1);
      expect(denyList.revocationOf(claims())).toBe('jti');
    });
  });

  describe('watch', () => {
    it('tells a watcher each entry that changes the list, with the applied seq, and not its repeats', () => {
      const changes: unknown[] = [];
      denyList.watch((change) => changes.push(change));
      const revoked = entry('jti', 'jti-1');

      denyList.apply(revoked);
      denyList.applyPage([revoked], revoked.seq);

      expect(changes).toEqual([{ seq: revoked.seq, entry: revoked }]);
    });

    it('tells a watcher when the seq moves without a new entry, and when it is rewound', () => {
      const changes: unknown[] = [];
      denyList.watch((change) => changes.push(change));

      denyList.applyPage([], 40);
      denyList.rewindTo(3);

      expect(changes).toEqual([{ seq: 40 }, { seq: 3 }]);
    });

    it('tells a later client revocation of the same app, which denies more tokens', () => {
      const changes: unknown[] = [];
      denyList.apply(entry('client', 'reports', NOW));
      denyList.watch((change) => changes.push(change));

      denyList.apply(entry('client', 'reports', NOW + 60));

      expect(changes).toHaveLength(1);
    });

    it('stops telling a watcher that unsubscribed', () => {
      const watcher = jest.fn();
      denyList.watch(watcher)();

      denyList.apply(entry('jti', 'jti-1'));

      expect(watcher).not.toHaveBeenCalled();
    });
  });
});
