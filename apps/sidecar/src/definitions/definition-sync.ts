import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { BackgroundLoop, Backoff } from '@platform/domain';
import { ControlPlaneApi } from '../control-plane/control-plane-api';
import type { DefinitionChange } from '@platform/domain';
import { followStream } from '../control-plane/follow-stream';
import { Readiness } from '../health/readiness';
import { pause } from '../pause';

/** The feed is also read this often, behind the stream (a broken stream still catches up). */
export const DEFINITION_POLL_MS = 5_000;
const PAGE = 500;

/**
 * The definitions sidecar services run on (rate limit rules, flags, masking settings), copied
 * from the control plane's feed: all of it at start (`GET /internal/v1/definitions?after=`), then
 * each change as the control plane pushes it (`/internal/v1/definitions/stream`, Server-Sent
 * Events: within a few ms of the commit through this control plane, within its 250 ms poll
 * through another replica), and the feed read again every DEFINITION_POLL_MS behind the stream.
 * Following the feed from its last seq is what makes it exact: a change is never missed, and a
 * deletion arrives as a tombstone. Until the first read succeeds nothing is known: the sidecar is
 * not ready (Readiness), and the services that need it say so.
 */
@Injectable()
export class DefinitionSync implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(DefinitionSync.name);
  private readonly stopped = new AbortController();
  private readonly definitions = new Map<string, DefinitionChange>();
  private lastSeq = 0;
  private loaded = false;
  private loop: Promise<void> | undefined;
  private readonly poll = new BackgroundLoop({
    what: 'definitions feed read',
    run: () => this.syncNow(),
    everyMs: DEFINITION_POLL_MS,
    logger: this.logger,
  });

  constructor(
    private readonly controlPlane: ControlPlaneApi,
    private readonly readiness: Readiness,
  ) {}

  get isLoaded(): boolean {
    return this.loaded;
  }

  /** The live document of (kind, tenant, name), and its version. */
  find(kind: string, tenant: string, name: string): DefinitionChange | undefined {
    return this.definitions.get(keyOf(kind, tenant, name));
  }

  onApplicationBootstrap(): void {
    this.loop = this.run();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped.abort();
    await this.poll.stop();
    await this.loop;
  }

  /** Applies every change after the last seq; answers how many. */
  async syncNow(): Promise<number> {
    let applied = 0;
    for (;;) {
      const { definitions, last_seq } = await this.controlPlane.fetchDefinitionsAfter(this.lastSeq, PAGE);
      for (const change of definitions) if (this.apply(change)) applied++;
      this.lastSeq = Math.max(this.lastSeq, last_seq);
      if (definitions.length < PAGE) break;
    }
    if (!this.loaded) {
      this.logger.log(`definitions loaded (${this.definitions.size}, seq ${this.lastSeq})`);
      this.loaded = true;
      this.readiness.markLoaded('definitions');
    }
    return applied;
  }

  /** Applies a change newer than the last one applied; answers whether it was. */
  private apply(change: DefinitionChange): boolean {
    if (change.seq <= this.lastSeq) return false;
    const key = keyOf(change.kind, change.tenant, change.name);
    if (change.document === null) this.definitions.delete(key);
    else this.definitions.set(key, change);
    this.lastSeq = change.seq;
    return true;
  }

  private async run(): Promise<void> {
    const { signal } = this.stopped;
    const backoff = new Backoff(250, 5_000);
    while (!signal.aborted) {
      try {
        await this.syncNow();
        break;
      } catch (error) {
        const delay = backoff.next();
        this.logger.warn(`definitions load failed, retrying in ${delay} ms: ${(error as Error).message}`);
        await pause(delay, signal);
      }
    }
    if (signal.aborted) return;
    this.poll.start();
    await followStream({
      what: 'definitions stream',
      logger: this.logger,
      signal,
      open: (connection, onOpen) => this.controlPlane.streamDefinitions(this.lastSeq, connection, onOpen),
      apply: (change) => this.apply(change),
    });
  }
}

const keyOf = (kind: string, tenant: string, name: string) => `${kind}\u0000${tenant}\u0000${name}`;
