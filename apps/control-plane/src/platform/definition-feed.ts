import { Inject, Injectable } from '@nestjs/common';
import { type DefinitionChange, type Stores, toDefinitionChange } from '@platform/domain';
import { SeqFeed } from './seq-feed';
import { STORES } from './tokens';

/** Definition changes: rate limit rules, flags, masking settings (`/internal/v1/definitions/stream`). */
@Injectable()
export class DefinitionFeed extends SeqFeed<DefinitionChange> {
  constructor(@Inject(STORES) private readonly stores: Stores) {
    super();
  }

  protected async readAfter(after: number, limit: number): Promise<DefinitionChange[]> {
    return (await this.stores.definitions.listDefinitionsAfter(after, limit)).map(toDefinitionChange);
  }
}
