import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { BackgroundLoop, Backoff } from '@platform/domain';
import { pause } from '../pause';
import { CLOCK } from '../clock';
import { epochSeconds, type Clock } from '@platform/domain';
import { SIDECAR_CONFIG, type SidecarConfig } from '../config/sidecar-config';
import { ControlPlaneApi } from '../control-plane/control-plane-api';
import { followStream } from '../control-plane/follow-stream';
import { Readiness } from '../health/readiness';
import { DenyList } from '@platform/domain';

/** Page size of `GET /internal/v1/revocations?after=`. */
export const SYNC_PAGE_SIZE = 1000;
/** A sync stops after this many pages; the stream and the poll carry on from there. */
const MAX_SYNC_PAGES = 100;

/**
 * Keeps the deny-list in step with the control plane, three ways:
 * 1. at start, the whole live list (`/revocations/active`);
 * 2. the Server-Sent Events stream from the last seq, reconnecting with backoff;
 * 3. every `revocationPollMs` the whole live list again, so even with a broken stream every
 *    revocation arrives within the specification's 30 s; expired entries are pruned then too.
 * `syncNow()` pulls what is new at once (the SyncRevocations RPC).
 */
@Injectable()
export class RevocationSync implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(RevocationSync.name);
  private readonly stopped = new AbortController();
  /** Aborts the current stream connection only (to reconnect from a rewound seq). */
  private connection: AbortController | undefined;
  private readonly poll: BackgroundLoop;
  private loop: Promise<void> | undefined;

  constructor(
    private readonly controlPlane: ControlPlaneApi,
    private readonly denyList: DenyList,
    @Inject(SIDECAR_CONFIG) config: SidecarConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly readiness: Readiness,
  ) {
    this.poll = new BackgroundLoop({
      what: 'deny-list re-read',
      run: () => this.reloadActive(),
      everyMs: config.revocationPollMs,
      logger: this.logger,
    });
  }

  onApplicationBootstrap(): void {
    this.loop = this.run();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped.abort();
    this.connection?.abort();
    await this.poll.stop();
    await this.loop;
  }

  /** Pulls every entry after the applied seq and applies it; answers the new last seq. */
  async syncNow(): Promise<number> {
    for (let page = 0; page < MAX_SYNC_PAGES; page++) {
      const after = this.denyList.lastSeq;
      const { revocations, last_seq } = await this.controlPlane.fetchRevocationsAfter(after, SYNC_PAGE_SIZE);
      this.denyList.applyPage(revocations, last_seq);
      if (revocations.length < SYNC_PAGE_SIZE || this.denyList.lastSeq <= after) break;
    }
    return this.denyList.lastSeq;
  }

  /** Re-reads the whole live deny-list and prunes what has expired. */
  async reloadActive(): Promise<void> {
    const { revocations, last_seq } = await this.controlPlane.fetchActiveRevocations();
    if (last_seq < this.denyList.lastSeq) {
      this.logger.warn(
        `revocation feed restarted (seq ${last_seq} < ${this.denyList.lastSeq}); following it from ${last_seq}`,
      );
      this.denyList.rewindTo(last_seq);
      this.connection?.abort();
    }
    this.denyList.applyPage(revocations, last_seq);
    this.denyList.prune(epochSeconds(this.clock));
  }

  private async run(): Promise<void> {
    const { signal } = this.stopped;
    const backoff = new Backoff(250, 5_000);
    while (!signal.aborted) {
      try {
        await this.reloadActive();
        break;
      } catch (error) {
        const delay = backoff.next();
        this.logger.warn(`deny-list load failed, retrying in ${delay} ms: ${(error as Error).message}`);
        await pause(delay, signal);
      }
    }
    if (signal.aborted) return;
    this.logger.log(`deny-list loaded (${this.denyList.size} entries, seq ${this.denyList.lastSeq})`);
    this.readiness.markLoaded('denyList');
    this.poll.start();
    await this.followStream(signal);
  }

  private followStream(signal: AbortSignal): Promise<void> {
    return followStream({
      what: 'revocation stream',
      logger: this.logger,
      signal,
      open: (connection, onOpen) =>
        this.controlPlane.streamRevocations(this.denyList.lastSeq, connection, onOpen),
      apply: (entry) => this.denyList.apply(entry),
      onConnection: (connection) => (this.connection = connection),
    });
  }
}
