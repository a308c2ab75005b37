import { Controller, Inject, Query, Res } from '@nestjs/common';
import {
  DEFAULT_PAGE_SIZE,
  ListTokenEventsQueryDto,
  TOKEN_EVENT_OPERATIONS,
  type TokenEventDto,
} from '@platform/contract';
import { type AccessTokenClaims, type Stores, type TokenEvent } from '@platform/domain';
import { followFeed, liveReplyOf } from '@platform/http';
import type { FastifyReply } from 'fastify';
import { STORES } from '../platform/tokens';
import { AdminClaims } from '../platform/admin-api.guard';
import { ImplementsLive } from '../platform/implements';

@Controller()
export class AdminTokenEventsController {
  constructor(@Inject(STORES) private readonly stores: Stores) {}

  /**
   * Cursor-paged: pass `next_after` back as `after` to follow the stream. With
   * `Accept: text/event-stream`, the same events live (SSE, `id` = the event id, resumable
   * with `Last-Event-ID`), until the admin token expires.
   */
  @ImplementsLive(TOKEN_EVENT_OPERATIONS.list)
  async list(
    @Query() query: ListTokenEventsQueryDto,
    @AdminClaims() admin: AccessTokenClaims,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const page = (after: number, limit: number) =>
      this.stores.tokenEvents.listTokenEvents({ after, limit, clientId: query.client_id });
    const live = liveReplyOf(reply);
    if (live) {
      const feed = {
        page,
        idOf: (e: TokenEvent) => e.id,
        event: 'token_event',
        toData: toTokenEventResponse,
      };
      return followFeed(reply, live, feed, query.after ?? 0, {
        expiresAt: admin.exp,
        caller: `client:${admin.client_id}`,
      });
    }
    const events = await page(query.after ?? 0, query.limit ?? DEFAULT_PAGE_SIZE);
    return {
      events: events.map(toTokenEventResponse),
      next_after: events.length > 0 ? events[events.length - 1].id : (query.after ?? 0),
    };
  }
}

function toTokenEventResponse(e: TokenEvent): TokenEventDto {
  return {
    id: e.id,
    type: e.type,
    client_id: e.clientId,
    subject: e.subject,
    jti: e.jti,
    grant_id: e.grantId,
    occurred_at: e.occurredAt.toISOString(),
  };
}
