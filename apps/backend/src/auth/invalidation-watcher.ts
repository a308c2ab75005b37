import type { ClientReadableStream } from '@grpc/grpc-js';
import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { Backoff, LiveStreamAuthority } from '@platform/domain';
import type { InvalidationMessage } from '@platform/grpc';
import { SidecarClient } from '../clients/sidecar.client';
import { LocalTokenVerifier } from './local-token-verifier';
import { ValidatedTokenCache } from './validated-token-cache';

const RECONNECT_MIN_MS = 100;
const RECONNECT_MAX_MS = 5_000;

interface Waiter {
  seq: number;
  settle: (confirmed: boolean) => void;
}

/**
 * Owns the sidecar's WatchInvalidations stream and keeps ValidatedTokenCache and
 * LocalTokenVerifier exact with it: both live after `ready` (which brings the keys and the
 * deny-list), every revocation drops the cached tokens it denies and joins the verifier's
 * deny-list, a changed key set empties the cache and replaces the verifier's keys. Fails
 * closed: when the stream errors or ends both go dark (cleared, not consulted) and the watcher
 * reconnects with a doubling, jittered delay (Backoff); until the next `ready` every request asks
 * the sidecar. The live streams this backend relays (LiveStreamAuthority) hear every
 * revocation too, and end when the stream is lost: they are watched even with the cache off.
 */
@Injectable()
export class InvalidationWatcher implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(InvalidationWatcher.name);
  private stream: ClientReadableStream<InvalidationMessage> | undefined;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private readonly reconnectDelay = new Backoff(RECONNECT_MIN_MS, RECONNECT_MAX_MS);
  private stopped = false;
  /** The sidecar's applied revocation seq, as the live stream last reported it. */
  private seq = 0;
  private readonly waiters = new Set<Waiter>();

  constructor(
    private readonly sidecar: SidecarClient,
    private readonly cache: ValidatedTokenCache,
    private readonly verifier: LocalTokenVerifier,
    private readonly streams: LiveStreamAuthority,
  ) {}

  onApplicationBootstrap(): void {
    this.connect();
  }

  onApplicationShutdown(): void {
    this.stopped = true;
    clearTimeout(this.reconnectTimer);
    const stream = this.stream;
    this.lost();
    stream?.cancel();
  }

  /**
   * Resolves true once the cache can no longer hold an answer that the revocations up to `seq`
   * (a SyncRevocations answer) deny: the live stream has delivered them, or the cache is dark.
   * False when that is not confirmed within `timeoutMs`.
   */
  settled(seq: number, timeoutMs: number): Promise<boolean> {
    if (!this.cache.isLive || this.seq >= seq) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => waiter.settle(false), timeoutMs);
      const waiter: Waiter = {
        seq,
        settle: (confirmed) => {
          clearTimeout(timer);
          this.waiters.delete(waiter);
          resolve(confirmed);
        },
      };
      this.waiters.add(waiter);
    });
  }

  private connect(): void {
    let stream: ClientReadableStream<InvalidationMessage>;
    try {
      stream = this.sidecar.watchInvalidations();
    } catch (error) {
      this.logger.warn(`cannot watch invalidations: ${(error as Error).message}`);
      return this.scheduleReconnect();
    }
    this.stream = stream;
    stream.on('data', (message: InvalidationMessage) => this.receive(message));
    // Every end of the call (error or not) is reported once through 'status'; 'error' only needs
    // a listener so that it is not thrown.
    stream.on('error', () => undefined);
    stream.on('status', ({ code, details }: { code: number; details: string }) => {
      if (this.stream !== stream) return;
      this.stream = undefined;
      if (this.cache.isLive) this.logger.warn(`invalidation stream ended (${code} ${details}); cache off`);
      this.lost();
      this.scheduleReconnect();
    });
  }

  private receive(message: InvalidationMessage): void {
    switch (message.change) {
      case 'ready':
        // Streams opened while the stream was down were not told what was revoked meanwhile.
        this.streams.judge(message.ready.deny_list);
        this.reconnectDelay.reset();
        if (!this.cache.enabled) break;
        this.cache.goLive();
        this.verifier.goLive(message.ready.keys, message.ready.deny_list);
        this.logger.log('invalidation stream live; validation cache on');
        break;
      case 'revocation':
        this.cache.revoke(message.revocation);
        this.verifier.revoke(message.revocation);
        this.streams.revoked(message.revocation);
        break;
      case 'keys_changed':
        this.cache.clear();
        this.verifier.replaceKeys(message.keys_changed.keys);
        break;
      case 'seq_advanced':
        break;
      default:
        // A change this backend does not know: it may invalidate anything, until the next ready.
        this.cache.clear();
        this.verifier.goDark();
        this.streams.endAll('revocations_unavailable');
    }
    this.seq = message.seq;
    for (const waiter of this.waiters) if (waiter.seq <= this.seq) waiter.settle(true);
  }

  /**
   * The stream is gone: nothing cached can be trusted, and nothing is cached any more; no live
   * stream can be told of a revocation, so none runs on.
   */
  private lost(): void {
    this.cache.goDark();
    this.verifier.goDark();
    this.streams.endAll('revocations_unavailable');
    this.seq = 0;
    for (const waiter of this.waiters) waiter.settle(true);
  }

  private scheduleReconnect(): void {
    if (this.stopped) return;
    this.reconnectTimer = setTimeout(() => this.connect(), this.reconnectDelay.next());
    this.reconnectTimer.unref();
  }
}
