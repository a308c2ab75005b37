import { Body, Controller, Inject, Query, Req, Res } from '@nestjs/common';
import { REVOCATION_FEED_OPERATIONS, TrustedRevocationDto } from '@platform/contract';
import { TokenRevoker, type Clock, type Stores, toRevocationEntry } from '@platform/domain';
import { type PlatformRequest } from '@platform/http';
import type { FastifyReply } from 'fastify';
import { FeedQuery } from '../platform/feed-query';
import { streamFeed } from '../platform/feed-stream';
import { CLOCK, STORES } from '../platform/tokens';
import { RevocationFeed } from '../platform/revocation-feed';
import { metrics } from '@platform/telemetry';
import { Implements } from '../platform/implements';

/** The deny-list feed the sidecars follow (docs/internal-api.md). */
@Controller()
export class RevocationsController {
  constructor(
    @Inject(STORES) private readonly stores: Stores,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly revoker: TokenRevoker,
    private readonly feed: RevocationFeed,
  ) {}

  @Implements(REVOCATION_FEED_OPERATIONS.revoke)
  async revoke(@Body() body: TrustedRevocationDto) {
    const revoked = await this.revoker.revokeTrusted(body.token);
    if (revoked) metrics.tokensRevoked.labels('trusted').inc();
    this.feed.wake();
    return { revoked };
  }

  @Implements(REVOCATION_FEED_OPERATIONS.after)
  async after(@Query() query: FeedQuery) {
    const after = query.after ?? 0;
    const page = await this.stores.revocations.listRevocationsAfter(after, query.limit ?? 1000);
    return { revocations: page.map(toRevocationEntry), last_seq: page.at(-1)?.seq ?? after };
  }

  @Implements(REVOCATION_FEED_OPERATIONS.active)
  async active() {
    const entries = await this.stores.revocations.listActiveRevocations(this.clock.now());
    let lastSeq = entries.at(-1)?.seq ?? 0;
    for (let page = await this.nextPage(lastSeq); page.length > 0; page = await this.nextPage(lastSeq)) {
      lastSeq = page[page.length - 1].seq; // expired entries newer than the last live one
    }
    return { revocations: entries.map(toRevocationEntry), last_seq: lastSeq };
  }

  private nextPage(after: number) {
    return this.stores.revocations.listRevocationsAfter(after, 1000);
  }

  @Implements(REVOCATION_FEED_OPERATIONS.stream)
  async stream(@Query() query: FeedQuery, @Req() request: PlatformRequest, @Res() reply: FastifyReply) {
    await streamFeed(this.feed, query.after ?? 0, request, reply);
  }
}
