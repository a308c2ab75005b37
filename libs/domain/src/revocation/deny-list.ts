import { type RevocableClaims, type RevocationEntry, revocationDenies } from './revocation-entry';
import type { RevocationKind } from './revocation';

/**
 * What a watcher of the deny-list is told: an entry that changed it (a token that passed before
 * may now be refused), or only that the applied seq moved. `seq` is the applied seq after it.
 */
export type DenyListChange = { seq: number; entry?: RevocationEntry };

/** The kinds that deny every token of a client or of a user issued at or before the entry. */
type IssuedBeforeKind = 'client' | 'subject';

interface IssuedBeforeRevocation {
  /** Every token of the client (the app was deleted) or user (deprovisioned) with `iat <= revokedAt`. */
  revokedAt: number;
  expiresAt: number;
}

/**
 * The in-memory deny-list: the sidecar's, fed by the control plane's revocation feed, and the
 * backend's copy of it, fed by the sidecar's invalidation stream. Entries only ever get added (a
 * revocation is never undone), so applying the same entry twice, out of order, or from both the
 * stream and a full re-read is harmless; an entry is dropped once its `expires_at` has passed, as
 * no token it could deny is still valid by then.
 */
export class DenyList {
  /** jti -> expires_at. */
  private readonly jtis = new Map<string, number>();
  /** client_id -> revocation. */
  private readonly clients = new Map<string, IssuedBeforeRevocation>();
  /** sub (user id) -> revocation. */
  private readonly subjects = new Map<string, IssuedBeforeRevocation>();
  /** grant_id -> expires_at. */
  private readonly grants = new Map<string, number>();
  /**
   * `client_id created_at` -> expires_at of each secret rotation: they deny no token, but each new
   * one is announced, so that watchers forget the authentications they remember.
   */
  private readonly rotations = new Map<string, number>();
  private seq = 0;
  /** The seq the watchers were last told. */
  private announcedSeq = 0;
  private readonly watchers = new Set<(change: DenyListChange) => void>();

  /** Highest revocation seq applied. */
  get lastSeq(): number {
    return this.seq;
  }

  get size(): number {
    return this.jtis.size + this.clients.size + this.subjects.size + this.grants.size;
  }

  /**
   * Tells `watcher` every entry that changes the deny-list (a repeat of a known entry does not)
   * and every move of the applied seq, synchronously and in order. Answers the unsubscribe.
   */
  watch(watcher: (change: DenyListChange) => void): () => void {
    this.watchers.add(watcher);
    return () => this.watchers.delete(watcher);
  }

  apply(entry: RevocationEntry): void {
    this.record(entry);
    this.announceSeq();
  }

  /** Applies a page of the feed and records that everything up to `lastSeq` is covered. */
  applyPage(entries: readonly RevocationEntry[], lastSeq: number): void {
    for (const entry of entries) this.record(entry);
    if (lastSeq > this.seq) this.seq = lastSeq;
    this.announceSeq();
  }

  /**
   * Moves the cursor back (the control plane's feed restarted below what we had seen, e.g. a
   * fresh database); entries already held stay until they expire.
   */
  rewindTo(seq: number): void {
    this.seq = seq;
    this.announceSeq();
  }

  /**
   * Why these claims are denied, or undefined when they are not. The entries are indexed by key
   * (this runs on every ValidateToken); what a client or subject entry covers is the one rule,
   * `revocationDenies`. A subject entry is looked up for the token's user and for every actor of
   * its `act` chain.
   */
  revocationOf(claims: RevocableClaims): RevocationKind | undefined {
    if (this.jtis.has(claims.jti)) return 'jti';
    if (this.deniesIssuedBefore('client', this.clients, claims.client_id, claims)) return 'client';
    if (claims.sub && this.deniesIssuedBefore('subject', this.subjects, claims.sub, claims)) return 'subject';
    for (let actor = claims.act; actor; actor = actor.act) {
      if (this.deniesIssuedBefore('subject', this.subjects, actor.sub, claims)) return 'subject';
    }
    if (claims.grant_id && this.grants.has(claims.grant_id)) return 'grant';
    return undefined;
  }

  private deniesIssuedBefore(
    kind: IssuedBeforeKind,
    entries: Map<string, IssuedBeforeRevocation>,
    value: string,
    claims: RevocableClaims,
  ): boolean {
    const held = entries.get(value);
    return held !== undefined && revocationDenies({ kind, value, created_at: held.revokedAt }, claims);
  }

  /**
   * Every entry held, as the feed would carry it (`seq` is the applied seq; `created_at` is kept
   * for client and subject entries only, the kinds whose rule reads it), to copy the list elsewhere.
   */
  entries(): RevocationEntry[] {
    const seq = this.seq;
    return [
      ...[...this.jtis].map(([value, expires]) => ({
        seq,
        kind: 'jti' as const,
        value,
        created_at: 0,
        expires_at: expires,
      })),
      ...[...this.grants].map(([value, expires]) => ({
        seq,
        kind: 'grant' as const,
        value,
        created_at: 0,
        expires_at: expires,
      })),
      ...issuedBeforeEntries(seq, 'client', this.clients),
      ...issuedBeforeEntries(seq, 'subject', this.subjects),
    ];
  }

  private record(entry: RevocationEntry): void {
    const changed = this.add(entry);
    if (entry.seq > this.seq) this.seq = entry.seq;
    if (changed) this.announce({ seq: this.seq, entry });
  }

  /**
   * Adds the entry; answers whether watchers must hear of it: a token it did not deny before is
   * denied now, or a secret was rotated.
   */
  private add(entry: RevocationEntry): boolean {
    switch (entry.kind) {
      case 'jti':
        return extend(this.jtis, entry.value, entry.expires_at);
      case 'grant':
        return extend(this.grants, entry.value, entry.expires_at);
      case 'client':
        return extendIssuedBefore(this.clients, entry);
      case 'subject':
        return extendIssuedBefore(this.subjects, entry);
      case 'secret':
        return extend(this.rotations, `${entry.value} ${entry.created_at}`, entry.expires_at);
      case 'signing_key':
        return false; // for control-plane replicas; a key set here refreshes on an unknown kid
      default: {
        const unknownKind: never = entry.kind;
        throw new Error(`unknown revocation kind ${String(unknownKind)}`);
      }
    }
  }

  private announceSeq(): void {
    if (this.seq !== this.announcedSeq) this.announce({ seq: this.seq });
  }

  private announce(change: DenyListChange): void {
    this.announcedSeq = change.seq;
    for (const watcher of this.watchers) watcher(change);
  }

  /** Drops every entry whose `expires_at` is before `nowSeconds`; answers how many went. */
  prune(nowSeconds: number): number {
    let removed = 0;
    for (const [jti, expiresAt] of this.jtis) if (expiresAt < nowSeconds && this.jtis.delete(jti)) removed++;
    for (const [grant, expiresAt] of this.grants)
      if (expiresAt < nowSeconds && this.grants.delete(grant)) removed++;
    for (const [rotation, expiresAt] of this.rotations)
      if (expiresAt < nowSeconds && this.rotations.delete(rotation)) removed++;
    for (const issuedBefore of [this.clients, this.subjects])
      for (const [value, entry] of issuedBefore)
        if (entry.expiresAt < nowSeconds && issuedBefore.delete(value)) removed++;
    return removed;
  }
}

/** Keeps the later expiry of `key`; answers whether the key is new. */
function extend(entries: Map<string, number>, key: string, expiresAt: number): boolean {
  const known = entries.get(key);
  entries.set(key, Math.max(known ?? 0, expiresAt));
  return known === undefined;
}

/** Keeps the later revocation and expiry of the entry's value; answers whether it denies more now. */
function extendIssuedBefore(entries: Map<string, IssuedBeforeRevocation>, entry: RevocationEntry): boolean {
  const known = entries.get(entry.value);
  entries.set(entry.value, {
    revokedAt: Math.max(known?.revokedAt ?? 0, entry.created_at),
    expiresAt: Math.max(known?.expiresAt ?? 0, entry.expires_at),
  });
  return known === undefined || entry.created_at > known.revokedAt;
}

function issuedBeforeEntries(
  seq: number,
  kind: IssuedBeforeKind,
  entries: Map<string, IssuedBeforeRevocation>,
): RevocationEntry[] {
  return [...entries].map(([value, { revokedAt, expiresAt }]) => ({
    seq,
    kind,
    value,
    created_at: revokedAt,
    expires_at: expiresAt,
  }));
}
