import { Injectable, Logger } from '@nestjs/common';
import { SidecarClient } from '../clients/sidecar.client';
import { InvalidationWatcher } from './invalidation-watcher';
import { ValidatedTokenCache } from './validated-token-cache';

/** How long a revocation waits for the invalidation stream to confirm it before clearing the cache. */
export const CONFIRM_TIMEOUT_MS = 1_000;

/**
 * What every backend route that revokes (token revocation, app deletion, the auth family's
 * revoke) does once the control plane has persisted it, before answering: the local sidecar
 * applies it now (SyncRevocations), and this backend's validation cache is confirmed to have
 * dropped what it denies, so the very next request is refused. "Confirmed" means the
 * invalidation stream delivered up to the seq SyncRevocations answered; when that cannot be
 * confirmed within CONFIRM_TIMEOUT_MS, the whole cache is cleared instead.
 */
@Injectable()
export class LocalRevocation {
  private readonly logger = new Logger(LocalRevocation.name);

  constructor(
    private readonly sidecar: SidecarClient,
    private readonly watcher: InvalidationWatcher,
    private readonly cache: ValidatedTokenCache,
  ) {}

  /** `revokedToken`, when the caller knows it, is dropped from the cache at once. */
  async applyNow(revokedToken?: string): Promise<void> {
    if (revokedToken !== undefined) this.cache.forget(revokedToken);
    try {
      const seq = await this.sidecar.syncRevocations();
      if (await this.watcher.settled(seq, CONFIRM_TIMEOUT_MS)) return;
      this.logger.warn(`invalidation stream did not confirm seq ${seq}; cache cleared`);
    } catch (error) {
      // Persisted by the control plane: the sidecar's own stream or poll applies it soon.
      this.logger.warn(`revocation persisted but the sidecar was not synced: ${(error as Error).message}`);
    }
    this.cache.clear();
  }
}
