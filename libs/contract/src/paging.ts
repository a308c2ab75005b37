import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

/** The page size of a listing that names none. */
export const DEFAULT_PAGE_SIZE = 100;

/** The page size every public listing takes; each listing adds its own cursor. */
export class PageQueryDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 1000, default: DEFAULT_PAGE_SIZE })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1000)
  limit?: number;
}

/** A page of an append-only stream: `after` is the `next_after` of the previous page. */
export class CursorPageQueryDto extends PageQueryDto {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    description: 'Cursor: `next_after` of the previous page.',
  })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  after?: number;
}

/** What every live listing's description adds: how its stream ends (docs/audit.md, "Live streams"). */
export const LIVE_STREAM_END =
  'The stream runs on the token that opened it: at the token’s expiry, and at once when it is revoked, its app deleted or its user deprovisioned, it ends with `event: end`, `data: {"reason": …}` (`token_expired`, `token_revoked`, `grant_revoked`, `app_deleted`, `user_deprovisioned`, `revocations_unavailable`). A reader too far behind is ended with `too_slow` and the `last_event_id` to resume after; a caller over its share of open streams is refused with 429 (docs/operations.md, "Live streams").';
