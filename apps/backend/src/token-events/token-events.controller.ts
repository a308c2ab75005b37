import { Controller, Get, Req, Res } from '@nestjs/common';
import type { PlatformRequest } from '@platform/http';
import type { FastifyReply } from 'fastify';
import { RequireAdmin } from '../auth/admin.guard';
import { ControlPlaneRelay } from '../forwarding/control-plane-relay';
import { ApiQuery } from '@nestjs/swagger';
import {
  AdminOperation,
  Answers,
  ListTokenEventsQueryDto,
  LIVE_STREAM_END,
  TokenEventPageDto,
} from '@platform/contract';

/** The token event stream (admin Bearer token). */
@Controller('api/v1/token-events')
@RequireAdmin()
export class TokenEventsController {
  constructor(private readonly relay: ControlPlaneRelay) {}

  @Get()
  @AdminOperation({
    id: 'listTokenEvents',
    tag: 'Events',
    summary: 'The token event stream',
    description:
      'Issuance, revocation, rotation and registry events, oldest first. Parameters, transport and payload are "not shown" in the specification; decided: plain JSON over HTTP, cursor-paged (poll with `after` = the previous `next_after`), filterable by `client_id`; or live, with `Accept: text/event-stream`: Server-Sent Events (`event: token_event`, `id` = the event id, `data` = the event) from `after`, every stored event and then each new one, resumed after `Last-Event-ID` on reconnection, with a comment heartbeat every 15 s. Each event is written in the same transaction as the change it records. ' +
      LIVE_STREAM_END,
  })
  @ApiQuery({ type: ListTokenEventsQueryDto })
  @Answers(200, TokenEventPageDto, 'One page of events.')
  list(@Req() request: PlatformRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.relay.forward(request, reply, {
      to: '/api/v1/token-events',
      query: ['after', 'limit', 'client_id'],
      live: true,
    });
  }
}
