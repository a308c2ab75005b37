import type { ServerWritableStream } from '@grpc/grpc-js';
import { Injectable, Logger } from '@nestjs/common';
import type { InvalidationMessage } from '@platform/grpc';
import { KeyCache } from '../keys/key-cache';
import { DenyList, type DenyListChange } from '../revocation/deny-list';
import { InternalTokenVerifier } from './internal-token.verifier';
import { toGrpcStatus } from './status-mapper';

type Empty = Record<string, never>;
type WatchCall = ServerWritableStream<Empty, InvalidationMessage>;

/**
 * `WatchInvalidations`: tells each watcher (a backend caching ValidateToken answers) every
 * deny-list change and every dropped or replaced key, in the order they are applied. Messages
 * are written synchronously from the change itself, so a SyncRevocations answer that follows a
 * change is always sent after the stream message that carries it.
 */
@Injectable()
export class InvalidationStreams {
  private readonly logger = new Logger('AuthService');
  private readonly open = new Set<WatchCall>();

  constructor(
    private readonly denyList: DenyList,
    private readonly keys: KeyCache,
    private readonly internalToken: InternalTokenVerifier,
  ) {}

  readonly watch = (call: WatchCall): void => {
    try {
      this.internalToken.assert(call.metadata);
    } catch (error) {
      call.emit('error', toGrpcStatus(error));
      return;
    }
    const send = (message: InvalidationMessage): void => {
      if (!call.cancelled) call.write(message);
    };
    const unwatchDenyList = this.denyList.watch((change) => send(fromDenyListChange(change)));
    const unwatchKeys = this.keys.watchRemovals((kids) =>
      send({ seq: this.denyList.lastSeq, change: 'keys_removed', keys_removed: { kids } }),
    );
    const forget = (): void => {
      unwatchDenyList();
      unwatchKeys();
      this.open.delete(call);
    };
    call.on('cancelled', forget);
    call.on('close', forget);
    call.on('error', forget);
    this.open.add(call);
    send({ seq: this.denyList.lastSeq, change: 'ready', ready: {} });
    this.logger.log(`invalidation watcher connected`);
  };

  /** Ends every stream (shutdown), so each watcher drops its cache now rather than at the kill. */
  endAll(): void {
    for (const call of [...this.open]) {
      this.open.delete(call);
      call.end();
    }
  }
}

function fromDenyListChange({ seq, entry }: DenyListChange): InvalidationMessage {
  if (entry === undefined) return { seq, change: 'seq_advanced', seq_advanced: {} };
  return {
    seq,
    change: 'revocation',
    revocation: { kind: entry.kind, value: entry.value, created_at: entry.created_at },
  };
}
