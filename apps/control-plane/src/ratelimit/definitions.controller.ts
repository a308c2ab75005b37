import { Controller, Get, Inject, Query, Req, Res } from '@nestjs/common';
import { type Stores, toDefinitionChange } from '@platform/domain';
import type { PlatformRequest } from '@platform/http';
import type { FastifyReply } from 'fastify';
import { FeedQuery } from '../internal/feed-query';
import { streamFeed } from '../internal/feed-stream';
import { DefinitionFeed } from '../platform/definition-feed';
import { STORES } from '../platform/tokens';
import { InternalRoute } from '../platform/route-authority';

/**
 * The feed of definition changes every sidecar follows (docs/internal-api.md): every change after
 * `after`, tombstones (`document: null`) included, in commit order; and the same live as
 * Server-Sent Events.
 */
@Controller('internal/v1/definitions')
@InternalRoute()
export class DefinitionsController {
  constructor(
    @Inject(STORES) private readonly stores: Stores,
    private readonly feed: DefinitionFeed,
  ) {}

  @Get()
  async after(@Query() query: FeedQuery) {
    const after = query.after ?? 0;
    const page = await this.stores.definitions.listDefinitionsAfter(after, query.limit ?? 500);
    return { definitions: page.map(toDefinitionChange), last_seq: page.at(-1)?.seq ?? after };
  }

  /** Server-Sent Events: one event per change, `id` = seq, so a reconnect resumes with `after`. */
  @Get('stream')
  async stream(@Query() query: FeedQuery, @Req() request: PlatformRequest, @Res() reply: FastifyReply) {
    await streamFeed(this.feed, query.after ?? 0, request, reply);
  }
}
