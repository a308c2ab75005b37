import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { SigningKeyRing, type Stores } from '@platform/domain';
import { RevocationFeed } from './revocation-feed';
import { STORES } from './tokens';

/**
 * Reloads this replica's signing keys as soon as any replica rotates them. A rotation writes a
 * `signing_key` entry to the revocation feed in its own transaction, and the feed reads the
 * database, so the new key signs and is published here within the feed's poll (250 ms); the
 * periodic reload stays as a backstop.
 */
@Injectable()
export class SigningKeyFollower implements OnApplicationShutdown {
  private readonly logger = new Logger(SigningKeyFollower.name);
  private unsubscribe: (() => void) | undefined;

  constructor(
    @Inject(STORES) private readonly stores: Stores,
    private readonly feed: RevocationFeed,
    private readonly keys: SigningKeyRing,
  ) {}

  /** Follows rotations from now on: called before the keys' first load, so none falls between. */
  async follow(): Promise<void> {
    const after = await this.stores.revocations.lastRevocationSeq();
    this.unsubscribe = await this.feed.subscribe(after, (entry) => {
      if (entry.kind !== 'signing_key') return;
      this.keys.load().catch((error: Error) => this.logger.warn(`signing key reload failed: ${error.name}`));
    });
  }

  onApplicationShutdown(): void {
    this.unsubscribe?.();
  }
}
