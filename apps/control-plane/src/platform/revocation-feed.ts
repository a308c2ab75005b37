import { Inject, Injectable } from '@nestjs/common';
import { type RevocationEntry, type Stores, toRevocationEntry } from '@platform/domain';
import { SeqFeed } from './seq-feed';
import { STORES } from './tokens';

/** New deny-list entries (`/internal/v1/revocations/stream`). */
@Injectable()
export class RevocationFeed extends SeqFeed<RevocationEntry> {
  constructor(@Inject(STORES) private readonly stores: Stores) {
    super();
  }

  protected async readAfter(after: number, limit: number): Promise<RevocationEntry[]> {
    return (await this.stores.revocations.listRevocationsAfter(after, limit)).map(toRevocationEntry);
  }
}
