import { Controller, Get, Inject, Query, UseGuards } from '@nestjs/common';
import { DEFAULT_PAGE_SIZE, ListTokenEventsQueryDto } from '@platform/contract';
import { type Stores } from '@platform/domain';
import { STORES } from '../platform/tokens';
import { AdminApiGuard } from './admin-api.guard';

@Controller('api/v1/token-events')
@UseGuards(AdminApiGuard)
export class AdminTokenEventsController {
  constructor(@Inject(STORES) private readonly stores: Stores) {}

  /** Cursor-paged: pass `next_after` back as `after` to follow the stream. */
  @Get()
  async list(@Query() query: ListTokenEventsQueryDto) {
    const limit = query.limit ?? DEFAULT_PAGE_SIZE;
    const events = await this.stores.tokenEvents.listTokenEvents({
      after: query.after,
      limit,
      clientId: query.client_id,
    });
    return {
      events: events.map((e) => ({
        id: e.id,
        type: e.type,
        client_id: e.clientId,
        subject: e.subject,
        jti: e.jti,
        grant_id: e.grantId,
        occurred_at: e.occurredAt.toISOString(),
      })),
      next_after: events.length > 0 ? events[events.length - 1].id : (query.after ?? 0),
    };
  }
}
