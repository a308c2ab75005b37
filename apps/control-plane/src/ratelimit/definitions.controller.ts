import { Controller, Get, Inject, Query, UseGuards } from '@nestjs/common';
import type { Stores } from '@platform/domain';
import { FeedQuery } from '../internal/feed-query';
import { InternalGuard } from '../internal/internal.guard';
import { STORES } from '../platform/tokens';

/**
 * The feed of definition changes every sidecar follows (docs/internal-api.md): every change after
 * `after`, tombstones (`document: null`) included, in commit order.
 */
@Controller('internal/v1/definitions')
@UseGuards(InternalGuard)
export class DefinitionsController {
  constructor(@Inject(STORES) private readonly stores: Stores) {}

  @Get()
  async after(@Query() query: FeedQuery) {
    const after = query.after ?? 0;
    const page = await this.stores.definitions.listDefinitionsAfter(after, query.limit ?? 500);
    return {
      definitions: page.map((d) => ({
        seq: d.seq,
        kind: d.kind,
        tenant: d.tenant,
        name: d.name,
        version: d.version,
        document: d.document,
      })),
      last_seq: page.at(-1)?.seq ?? after,
    };
  }
}
