import { Body, Controller, Param, ParseIntPipe, Query } from '@nestjs/common';
import {
  DEFAULT_PAGE_SIZE,
  ListWebhookDeliveriesQueryDto,
  RegisterWebhookDto,
  ReplayWebhookRangeDto,
  RotateWebhookSecretDto,
  UpdateWebhookDto,
  WEBHOOK_OPERATIONS,
} from '@platform/contract';
import { WebhookRegistry, type AuditActor } from '@platform/domain';
import { AdminActor } from '../platform/admin-api.guard';
import { Implements } from '../platform/implements';
import {
  toRegisteredWebhookResponse,
  toWebhookDeliveryResponse,
  toWebhookEndpointResponse,
} from './webhook-wire';

/** Webhook endpoints, their delivery log and replays, for platform administrators. */
@Controller()
export class AdminWebhooksController {
  constructor(private readonly webhooks: WebhookRegistry) {}

  @Implements(WEBHOOK_OPERATIONS.register)
  async register(@Body() body: RegisterWebhookDto, @AdminActor() actor: AuditActor) {
    const endpoint = await this.webhooks.register(
      {
        url: body.url,
        eventTypes: body.event_types,
        tenant: body.tenant ?? null,
        description: body.description,
        enabled: body.enabled,
      },
      actor,
    );
    return toRegisteredWebhookResponse(endpoint);
  }

  @Implements(WEBHOOK_OPERATIONS.list)
  async list() {
    return (await this.webhooks.list()).map(toWebhookEndpointResponse);
  }

  @Implements(WEBHOOK_OPERATIONS.get)
  async get(@Param('id') id: string) {
    return toWebhookEndpointResponse(await this.webhooks.get(id));
  }

  @Implements(WEBHOOK_OPERATIONS.update)
  async update(@Param('id') id: string, @Body() body: UpdateWebhookDto, @AdminActor() actor: AuditActor) {
    const endpoint = await this.webhooks.update(
      id,
      { url: body.url, eventTypes: body.event_types, description: body.description, enabled: body.enabled },
      actor,
    );
    return toWebhookEndpointResponse(endpoint);
  }

  @Implements(WEBHOOK_OPERATIONS.delete)
  async delete(@Param('id') id: string, @AdminActor() actor: AuditActor): Promise<void> {
    await this.webhooks.delete(id, actor);
  }

  @Implements(WEBHOOK_OPERATIONS.rotateSecret)
  async rotateSecret(
    @Param('id') id: string,
    @Body() body: RotateWebhookSecretDto,
    @AdminActor() actor: AuditActor,
  ) {
    return toRegisteredWebhookResponse(await this.webhooks.rotateSecret(id, actor, body.overlap_seconds));
  }

  @Implements(WEBHOOK_OPERATIONS.deliveries)
  async deliveries(@Param('id') id: string, @Query() query: ListWebhookDeliveriesQueryDto) {
    const deliveries = await this.webhooks.deliveries({
      endpointId: id,
      state: query.state,
      after: query.after,
      limit: query.limit ?? DEFAULT_PAGE_SIZE,
    });
    return {
      deliveries: deliveries.map(toWebhookDeliveryResponse),
      next_after: deliveries.length > 0 ? deliveries[deliveries.length - 1].id : (query.after ?? 0),
    };
  }

  @Implements(WEBHOOK_OPERATIONS.replayDelivery)
  async replayDelivery(
    @Param('id') id: string,
    @Param('delivery_id', ParseIntPipe) deliveryId: number,
    @AdminActor() actor: AuditActor,
  ) {
    const replay = await this.webhooks.replayDelivery(id, deliveryId, actor);
    return toWebhookDeliveryResponse({ ...replay, log: [] });
  }

  @Implements(WEBHOOK_OPERATIONS.replayRange)
  async replayRange(
    @Param('id') id: string,
    @Body() body: ReplayWebhookRangeDto,
    @AdminActor() actor: AuditActor,
  ) {
    return { queued: await this.webhooks.replayRange(id, new Date(body.since), new Date(body.until), actor) };
  }
}
