import { Controller, Inject, Query, Req, Res } from '@nestjs/common';
import { DEFINITION_FEED_OPERATIONS } from '@platform/contract';
import { type Stores, toDefinitionChange } from '@platform/domain';
import type { PlatformRequest } from '@platform/http';
import type { FastifyReply } from 'fastify';
import { FeedQuery } from '../platform/feed-query';
import { streamFeed } from '../platform/feed-stream';
import { DefinitionFeed } from '../platform/definition-feed';
import { Implements } from '../platform/implements';
import { STORES } from '../platform/tokens';

/**
 * The feed of definition changes every sidecar follows (docs/internal-api.md): every change after
 * `after`, tombstones (`document: null`) included, in commit order; and the same live as
 * Server-Sent Events.
 */
@Controller()
export class DefinitionsController {
  constructor(
    @Inject(STORES) private readonly stores: Stores,
    private readonly feed: DefinitionFeed,
  ) {}

  @Implements(DEFINITION_FEED_OPERATIONS.after)
  async after(@Query() query: FeedQuery) {
    const after = query.after ?? 0;
    const page = await this.stores.definitions.listDefinitionsAfter(after, query.limit ?? 500);
    return { definitions: page.map(toDefinitionChange), last_seq: page.at(-1)?.seq ?? after };
  }

  /** Server-Sent Events: one event per change, `id` = seq, so a reconnect resumes with `after`. */
  @Implements(DEFINITION_FEED_OPERATIONS.stream)
  async stream(@Query() query: FeedQuery, @Req() request: PlatformRequest, @Res() reply: FastifyReply) {
    await streamFeed(this.feed, query.after ?? 0, request, reply);
  }
}
