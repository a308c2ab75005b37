/**
 * What the deny-list holds: a token id, every token of a client issued before the entry
 * (app deletion), every token of a user issued before the entry (`subject`: the user was
 * deprovisioned), or every token of one authorization grant (refresh family revocation). A
 * `secret` entry denies no token: it says that the client's secret was rotated, so that whoever
 * remembers a successful authentication of that client (a backend answering introspection)
 * forgets it. A `signing_key` entry denies no token either: a replica rotated the signing key
 * (`value` is the new kid), so every other control-plane replica reloads its keys.
 */
export type RevocationKind = 'jti' | 'client' | 'subject' | 'grant' | 'secret' | 'signing_key';

export interface RevocationInput {
  kind: RevocationKind;
  value: string;
  /** After this instant no token the entry covers can still be valid, so it can be pruned. */
  expiresAt: Date;
}

export interface Revocation extends RevocationInput {
  /** Monotonic sequence number: sidecars follow the feed with it. */
  seq: number;
  createdAt: Date;
}

export interface RevocationStore {
  addRevocations(entries: RevocationInput[], now: Date): Promise<Revocation[]>;
  /** Entries with seq > `afterSeq`, ascending, at most `limit`. */
  listRevocationsAfter(afterSeq: number, limit: number): Promise<Revocation[]>;
  /** The highest seq the feed holds (0 when empty): where a follower of new entries starts. */
  lastRevocationSeq(): Promise<number>;
  /** Every entry that has not expired at `now`, ascending by seq. */
  listActiveRevocations(now: Date): Promise<Revocation[]>;
  /** Active entries matching any of the given (kind, value) pairs. */
  findActiveRevocations(
    keys: Array<{ kind: RevocationKind; value: string }>,
    now: Date,
  ): Promise<Revocation[]>;
  /** Deletes up to `limit` entries expired at `now` (a batch of a retention sweep); answers how many. */
  pruneRevocations(now: Date, limit: number): Promise<number>;
}
