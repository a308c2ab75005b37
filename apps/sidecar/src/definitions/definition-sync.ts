import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { Backoff } from '@platform/domain';
import { ControlPlaneApi } from '../control-plane/control-plane-api';
import type { DefinitionChange } from '../control-plane/control-plane.types';
import { Readiness } from '../health/readiness';
import { pause } from '../pause';

/** How often the feed is read: a change reaches every sidecar within this (well under a second). */
export const DEFINITION_POLL_MS = 250;
const PAGE = 500;

/**
 * The definitions sidecar services run on (rate limit rules, flags), copied from the control plane's
 * feed (`GET /internal/v1/definitions?after=`): all of it at start, then every change within
 * DEFINITION_POLL_MS. Reading the feed from its last seq is what makes it exact: a change is
 * never missed, whichever control-plane replica wrote it, and a deletion arrives as a tombstone.
 * Until the first read succeeds nothing is known: the sidecar is not ready (Readiness), and the
 * services that need it say so.
 */
@Injectable()
export class DefinitionSync implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(DefinitionSync.name);
  private readonly stopped = new AbortController();
  private readonly definitions = new Map<string, DefinitionChange>();
  private lastSeq = 0;
  private loaded = false;
  private loop: Promise<void> | undefined;

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
    await this.loop;
  }

  /** Applies every change after the last seq; answers how many. */
  async syncNow(): Promise<number> {
    let applied = 0;
    for (;;) {
      const { definitions, last_seq } = await this.controlPlane.fetchDefinitionsAfter(this.lastSeq, PAGE);
      for (const change of definitions) {
        const key = keyOf(change.kind, change.tenant, change.name);
        if (change.document === null) this.definitions.delete(key);
        else this.definitions.set(key, change);
      }
      applied += definitions.length;
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

  private async run(): Promise<void> {
    const { signal } = this.stopped;
    const backoff = new Backoff(DEFINITION_POLL_MS, 5_000);
    while (!signal.aborted) {
      try {
        await this.syncNow();
        backoff.reset();
        await pause(DEFINITION_POLL_MS, signal);
      } catch (error) {
        const delay = backoff.next();
        this.logger.warn(
          `definitions feed read failed, retrying in ${delay} ms: ${(error as Error).message}`,
        );
        await pause(delay, signal);
      }
    }
  }
}

const keyOf = (kind: string, tenant: string, name: string) => `${kind}\u0000${tenant}\u0000${name}`;
