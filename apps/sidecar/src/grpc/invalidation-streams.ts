import { Injectable, Logger } from '@nestjs/common';
import type { DenyListEntryMessage, InvalidationMessage, JsonWebKeyMessage } from '@platform/grpc';
import { Observable, type Subscriber } from 'rxjs';
import { KeyCache } from '../keys/key-cache';
import { DenyList, type DenyListChange, type RevocationEntry } from '@platform/domain';
import { toJsonWebKeyMessage } from '../keys/json-web-key-message';
import { SidecarGrpcServer } from './sidecar-grpc.server';

/**
 * `WatchInvalidations`: gives each watcher (a backend judging tokens itself) the trusted keys
 * and the deny-list, then every deny-list change and every change of the key set, in the order
 * they are applied. Messages are emitted synchronously from the change itself, so a
 * SyncRevocations answer that follows a change is always sent after the stream message that
 * carries it. Every watch ends when the server drains, so each watcher drops its copies now
 * rather than at the kill.
 */
@Injectable()
export class InvalidationStreams {
  private readonly logger = new Logger('AuthService');
  private readonly open = new Set<Subscriber<InvalidationMessage>>();

  constructor(
    private readonly denyList: DenyList,
    private readonly keys: KeyCache,
    server: SidecarGrpcServer,
  ) {
    server.onDrain(() => this.endAll());
  }

  watch(): Observable<InvalidationMessage> {
    return new Observable((watcher) => {
      const unwatchDenyList = this.denyList.watch((change) => watcher.next(fromDenyListChange(change)));
      const unwatchKeys = this.keys.watchChanges(() =>
        watcher.next({
          seq: this.denyList.lastSeq,
          change: 'keys_changed',
          keys_changed: { keys: this.trustedKeys() },
        }),
      );
      this.open.add(watcher);
      const ready = {
        keys: this.trustedKeys(),
        deny_list: this.denyList.entries().map(toDenyListEntryMessage),
      };
      watcher.next({ seq: this.denyList.lastSeq, change: 'ready', ready });
      this.logger.log(`invalidation watcher connected`);
      return () => {
        unwatchDenyList();
        unwatchKeys();
        this.open.delete(watcher);
      };
    });
  }

  private trustedKeys(): JsonWebKeyMessage[] {
    return this.keys.publicKeys().map(toJsonWebKeyMessage);
  }

  private endAll(): void {
    for (const watcher of [...this.open]) watcher.complete();
  }
}

function fromDenyListChange({ seq, entry }: DenyListChange): InvalidationMessage {
  if (entry === undefined) return { seq, change: 'seq_advanced', seq_advanced: {} };
  return { seq, change: 'revocation', revocation: toDenyListEntryMessage(entry) };
}

function toDenyListEntryMessage(entry: RevocationEntry): DenyListEntryMessage {
  return { kind: entry.kind, value: entry.value, created_at: entry.created_at, expires_at: entry.expires_at };
}
