import { Injectable } from '@nestjs/common';
import type { RevocationEntry, RevocationKind } from '../control-plane/control-plane.types';

/** The claims the deny-list looks at, from a token whose signature is already verified. */
export interface RevocableClaims {
  jti: string;
  client_id: string;
  /** Seconds. */
  iat: number;
  grant_id?: string;
}

interface ClientRevocation {
  /** Every token of the client with `iat <= revokedAt` is revoked (the app was deleted). */
  revokedAt: number;
  expiresAt: number;
}

/**
 * The in-memory deny-list. Entries only ever get added (a revocation is never undone), so
 * applying the same entry twice, out of order, or from both the stream and a full re-read is
 * harmless; an entry is dropped once its `expires_at` has passed, as no token it could deny is
 * still valid by then.
 */
@Injectable()
export class DenyList {
  /** jti -> expires_at. */
  private readonly jtis = new Map<string, number>();
  /** client_id -> revocation. */
  private readonly clients = new Map<string, ClientRevocation>();
  /** grant_id -> expires_at. */
  private readonly grants = new Map<string, number>();
  private seq = 0;

  /** Highest revocation seq applied. */
  get lastSeq(): number {
    return this.seq;
  }

  get size(): number {
    return this.jtis.size + this.clients.size + this.grants.size;
  }

  apply(entry: RevocationEntry): void {
    switch (entry.kind) {
      case 'jti':
        this.jtis.set(entry.value, Math.max(this.jtis.get(entry.value) ?? 0, entry.expires_at));
        break;
      case 'grant':
        this.grants.set(entry.value, Math.max(this.grants.get(entry.value) ?? 0, entry.expires_at));
        break;
      case 'client': {
        const known = this.clients.get(entry.value);
        this.clients.set(entry.value, {
          revokedAt: Math.max(known?.revokedAt ?? 0, entry.created_at),
          expiresAt: Math.max(known?.expiresAt ?? 0, entry.expires_at),
        });
        break;
      }
      default: {
        const unknownKind: never = entry.kind;
        throw new Error(`unknown revocation kind ${String(unknownKind)}`);
      }
    }
    if (entry.seq > this.seq) this.seq = entry.seq;
  }

  /** Applies a page of the feed and records that everything up to `lastSeq` is covered. */
  applyPage(entries: readonly RevocationEntry[], lastSeq: number): void {
    for (const entry of entries) this.apply(entry);
    if (lastSeq > this.seq) this.seq = lastSeq;
  }

  /**
   * Moves the cursor back (the control plane's feed restarted below what we had seen, e.g. a
   * fresh database); entries already held stay until they expire.
   */
  rewindTo(seq: number): void {
    this.seq = seq;
  }

  /** Why these claims are denied, or undefined when they are not. */
  revocationOf(claims: RevocableClaims): RevocationKind | undefined {
    if (this.jtis.has(claims.jti)) return 'jti';
    const client = this.clients.get(claims.client_id);
    if (client !== undefined && claims.iat <= client.revokedAt) return 'client';
    if (claims.grant_id && this.grants.has(claims.grant_id)) return 'grant';
    return undefined;
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
