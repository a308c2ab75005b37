import { Controller, Delete, Get, Patch, Post, Req, Res } from '@nestjs/common';
import { ApiExtraModels, ApiParam, ApiQuery, ApiResponse } from '@nestjs/swagger';
import {
  AdminOperation,
  Answers,
  JsonBody,
  ListWebhookDeliveriesQueryDto,
  RegisteredWebhookDto,
  RegisterWebhookDto,
  Refuses,
  ReplayWebhookRangeDto,
  RotateWebhookSecretDto,
  UpdateWebhookDto,
  WebhookDeliveryDto,
  WebhookDeliveryPageDto,
  WebhookEndpointDto,
  WebhookMessageDto,
  WebhookReplayDto,
} from '@platform/contract';
import type { PlatformRequest } from '@platform/http';
import type { FastifyReply } from 'fastify';
import { RequireAdmin } from '../auth/admin.guard';
import { ControlPlaneRelay } from '../forwarding/control-plane-relay';

const WebhookId = () => ApiParam({ name: 'id', required: true, description: 'The endpoint’s `wh_` id.' });
const NO_ENDPOINT = 'No such webhook endpoint.';

/** Webhook endpoints (admin Bearer token), same paths as the control plane's. */
@Controller('api/v1/webhooks')
@RequireAdmin()
@ApiExtraModels(WebhookMessageDto)
export class WebhooksController {
  constructor(private readonly relay: ControlPlaneRelay) {}

  @Post()
  @AdminOperation({
    id: 'registerWebhook',
    tag: 'Webhooks',
    summary: 'Register a webhook endpoint',
    description:
      'The endpoint receives every audit record from now on whose action matches `event_types` (token events included: `token.*`) and, when `tenant` is set, of that tenant only, as Standard Webhooks messages (`WebhookMessage`): POST, JSON, signed with the `secret` of this answer, shown this once. A 2xx is success; anything else is retried 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h later, then the delivery is dead (replay it). The same record always carries the same `webhook-id`: deduplicate on it. Order is not guaranteed; `data.sequence_id` gives the log’s order. See docs/webhooks.md.',
  })
  @JsonBody(RegisterWebhookDto)
  @Answers(201, RegisteredWebhookDto, 'Registered, with its secret.')
  @Refuses(
    400,
    'A URL that is not absolute http(s), has credentials or a fragment, or (production) is not https to a public address; a malformed event type.',
  )
  register(@Req() request: PlatformRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.relay.forward(request, reply, { to: '/api/v1/webhooks', body: 'json' });
  }

  @Get()
  @AdminOperation({ id: 'listWebhooks', tag: 'Webhooks', summary: 'List webhook endpoints' })
  @Answers(200, [WebhookEndpointDto], 'Every endpoint, oldest first, without secrets.')
  list(@Req() request: PlatformRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.relay.forward(request, reply, { to: '/api/v1/webhooks' });
  }

  @Get(':id')
  @AdminOperation({ id: 'getWebhook', tag: 'Webhooks', summary: 'One webhook endpoint' })
  @WebhookId()
  @Answers(200, WebhookEndpointDto, 'The endpoint, without its secret.')
  @Refuses(404, NO_ENDPOINT)
  get(@Req() request: PlatformRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.relay.forward(request, reply, { to: '/api/v1/webhooks/:id' });
  }

  @Patch(':id')
  @AdminOperation({
    id: 'updateWebhook',
    tag: 'Webhooks',
    summary: 'Change, disable or enable a webhook endpoint',
    description:
      'Changes the given fields. A disabled endpoint gets nothing queued and nothing sent; its pending deliveries wait. Enabling it again delivers what happens from then on (replay a range for the gap).',
  })
  @WebhookId()
  @JsonBody(UpdateWebhookDto)
  @Answers(200, WebhookEndpointDto, 'The endpoint as changed.')
  @Refuses(400, 'A refused URL or event type.')
  @Refuses(404, NO_ENDPOINT)
  update(@Req() request: PlatformRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.relay.forward(request, reply, { to: '/api/v1/webhooks/:id', body: 'json' });
  }

  @Delete(':id')
  @AdminOperation({
    id: 'deleteWebhook',
    tag: 'Webhooks',
    summary: 'Delete a webhook endpoint',
    description: 'With its pending deliveries and its delivery log.',
  })
  @WebhookId()
  @ApiResponse({ status: 204, description: 'Deleted; no body.' })
  @Refuses(404, NO_ENDPOINT)
  delete(@Req() request: PlatformRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.relay.forward(request, reply, { to: '/api/v1/webhooks/:id' });
  }

  @Post(':id/secret')
  @AdminOperation({
    id: 'rotateWebhookSecret',
    tag: 'Webhooks',
    summary: 'Rotate a webhook endpoint’s secret',
    description:
      'A new secret, shown once. For `overlap_seconds` (default a day, at most 7 days) every delivery carries two signatures, one per secret, so the receiver can switch to the new one at its own pace. An empty body takes the default.',
  })
  @WebhookId()
  @JsonBody(RotateWebhookSecretDto)
  @Answers(200, RegisteredWebhookDto, 'The endpoint with its new secret.')
  @Refuses(400, '`overlap_seconds` out of range.')
  @Refuses(404, NO_ENDPOINT)
  rotateSecret(@Req() request: PlatformRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.relay.forward(request, reply, { to: '/api/v1/webhooks/:id/secret', body: 'json' });
  }

  @Get(':id/deliveries')
  @AdminOperation({
    id: 'listWebhookDeliveries',
    tag: 'Webhooks',
    summary: 'The delivery log of an endpoint',
    description:
      'Its deliveries, oldest first, each with every attempt: when, how long, the status or the error, and the start of the answer.',
  })
  @WebhookId()
  @ApiQuery({ type: ListWebhookDeliveriesQueryDto })
  @Answers(200, WebhookDeliveryPageDto, 'One page of deliveries.')
  @Refuses(400, 'A malformed filter.')
  @Refuses(404, NO_ENDPOINT)
  deliveries(@Req() request: PlatformRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.relay.forward(request, reply, {
      to: '/api/v1/webhooks/:id/deliveries',
      query: ['state', 'after', 'limit'],
    });
  }

  @Post(':id/deliveries/:delivery_id/replay')
  @AdminOperation({
    id: 'replayWebhookDelivery',
    tag: 'Webhooks',
    summary: 'Send one delivery again',
    description:
      'Queues its record again as a new delivery with a fresh retry schedule (same `webhook-id`). No body.',
  })
  @WebhookId()
  @ApiParam({ name: 'delivery_id', required: true, example: 42 })
  @Answers(202, WebhookDeliveryDto, 'The new delivery.')
  @Refuses(400, 'The delivery id is not an integer.')
  @Refuses(404, 'No such delivery of this endpoint.')
  replayDelivery(@Req() request: PlatformRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.relay.forward(request, reply, { to: '/api/v1/webhooks/:id/deliveries/:delivery_id/replay' });
  }

  @Post(':id/replay')
  @AdminOperation({
    id: 'replayWebhookRange',
    tag: 'Webhooks',
    summary: 'Send a time range again',
    description:
      'Queues every audit record of `[since, until)` that the endpoint subscribes to (its tenant and event types), including from before it was registered, oldest first. More than 10,000: **400**, split the range.',
  })
  @WebhookId()
  @JsonBody(ReplayWebhookRangeDto)
  @Answers(202, WebhookReplayDto, 'How many deliveries were queued.')
  @Refuses(400, 'A malformed or empty range, or one holding more than 10,000 records.')
  @Refuses(404, NO_ENDPOINT)
  replayRange(@Req() request: PlatformRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.relay.forward(request, reply, { to: '/api/v1/webhooks/:id/replay', body: 'json' });
  }
}
