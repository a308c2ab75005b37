import { type RevocableClaims, type RevocationEntry, revocationDenies } from './revocation-entry';
import type { RevocationKind } from './storage';

/**
 * What a watcher of the deny-list is told: an entry that changed it (a token that passed before
 * may now be refused), or only that the applied seq moved. `seq` is the applied seq after it.
 */
export type DenyListChange = { seq: number; entry?: RevocationEntry };

interface ClientRevocation {
  /** Every token of the client with `iat <= revokedAt` is revoked (the app was deleted). */
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
  private readonly clients = new Map<string, ClientRevocation>();
  /** grant_id -> expires_at. */
  private readonly grants = new Map<string, number>();
  private seq = 0;
  /** The seq the watchers were last told. */
  private announcedSeq = 0;
  private readonly watchers = new Set<(change: DenyListChange) => void>();

  /** Highest revocation seq applied. */
  get lastSeq(): number {
    return this.seq;
  }

  get size(): number {
    return this.jtis.size + this.clients.size + this.grants.size;
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
   * (this runs on every ValidateToken); what a client entry covers is the one rule,
   * `revocationDenies`.
   */
  revocationOf(claims: RevocableClaims): RevocationKind | undefined {
    if (this.jtis.has(claims.jti)) return 'jti';
    const client = this.clients.get(claims.client_id);
    if (client !== undefined) {
      const entry = { kind: 'client' as const, value: claims.client_id, created_at: client.revokedAt };
      if (revocationDenies(entry, claims)) return 'client';
    }
    if (claims.grant_id && this.grants.has(claims.grant_id)) return 'grant';
    return undefined;
  }

  /**
   * Every entry held, as the feed would carry it (`seq` is the applied seq; `created_at` is kept
   * for client entries only, the one kind whose rule reads it), to copy the list elsewhere.
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
      ...[...this.clients].map(([value, { revokedAt, expiresAt }]) => ({
        seq,
        kind: 'client' as const,
        value,
        created_at: revokedAt,
        expires_at: expiresAt,
      })),
    ];
  }

  private record(entry: RevocationEntry): void {
    const changed = this.add(entry);
    if (entry.seq > this.seq) this.seq = entry.seq;
    if (changed) this.announce({ seq: this.seq, entry });
  }

  /** Adds the entry; answers whether any token it did not deny before is denied now. */
  private add(entry: RevocationEntry): boolean {
    switch (entry.kind) {
      case 'jti':
        return extend(this.jtis, entry.value, entry.expires_at);
      case 'grant':
        return extend(this.grants, entry.value, entry.expires_at);
      case 'client': {
        const known = this.clients.get(entry.value);
        this.clients.set(entry.value, {
          revokedAt: Math.max(known?.revokedAt ?? 0, entry.created_at),
          expiresAt: Math.max(known?.expiresAt ?? 0, entry.expires_at),
        });
        return known === undefined || entry.created_at > known.revokedAt;
      }
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
    for (const [client, entry] of this.clients)
      if (entry.expiresAt < nowSeconds && this.clients.delete(client)) removed++;
    return removed;
  }
}

/** Keeps the later expiry of `key`; answers whether the key is new. */
function extend(entries: Map<string, number>, key: string, expiresAt: number): boolean {
  const known = entries.get(key);
  entries.set(key, Math.max(known ?? 0, expiresAt));
  return known === undefined;
}
