import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  ParseIntPipe,
  Patch,
  Post,
  Query,
} from '@nestjs/common';
import {
  DEFAULT_PAGE_SIZE,
  ListWebhookDeliveriesQueryDto,
  RegisterWebhookDto,
  ReplayWebhookRangeDto,
  RotateWebhookSecretDto,
  UpdateWebhookDto,
} from '@platform/contract';
import { WebhookRegistry, type AuditActor } from '@platform/domain';
import { AdminActor } from '../admin/admin-api.guard';
import {
  toRegisteredWebhookResponse,
  toWebhookDeliveryResponse,
  toWebhookEndpointResponse,
} from './webhook-wire';
import { AdminRoute } from '../platform/route-authority';

/** Webhook endpoints, their delivery log and replays, for platform administrators. */
@Controller('api/v1/webhooks')
@AdminRoute()
export class AdminWebhooksController {
  constructor(private readonly webhooks: WebhookRegistry) {}

  @Post()
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

  @Get()
  async list() {
    return (await this.webhooks.list()).map(toWebhookEndpointResponse);
  }

  @Get(':id')
  async get(@Param('id') id: string) {
    return toWebhookEndpointResponse(await this.webhooks.get(id));
  }

  @Patch(':id')
  async update(@Param('id') id: string, @Body() body: UpdateWebhookDto, @AdminActor() actor: AuditActor) {
    const endpoint = await this.webhooks.update(
      id,
      { url: body.url, eventTypes: body.event_types, description: body.description, enabled: body.enabled },
      actor,
    );
    return toWebhookEndpointResponse(endpoint);
  }

  @Delete(':id')
  @HttpCode(204)
  async delete(@Param('id') id: string, @AdminActor() actor: AuditActor): Promise<void> {
    await this.webhooks.delete(id, actor);
  }

  @Post(':id/secret')
  @HttpCode(200)
  async rotateSecret(
    @Param('id') id: string,
    @Body() body: RotateWebhookSecretDto,
    @AdminActor() actor: AuditActor,
  ) {
    return toRegisteredWebhookResponse(await this.webhooks.rotateSecret(id, actor, body.overlap_seconds));
  }

  @Get(':id/deliveries')
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

  @Post(':id/deliveries/:deliveryId/replay')
  @HttpCode(202)
  async replayDelivery(
    @Param('id') id: string,
    @Param('deliveryId', ParseIntPipe) deliveryId: number,
    @AdminActor() actor: AuditActor,
  ) {
    const replay = await this.webhooks.replayDelivery(id, deliveryId, actor);
    return toWebhookDeliveryResponse({ ...replay, log: [] });
  }

  @Post(':id/replay')
  @HttpCode(202)
  async replayRange(
    @Param('id') id: string,
    @Body() body: ReplayWebhookRangeDto,
    @AdminActor() actor: AuditActor,
  ) {
    return { queued: await this.webhooks.replayRange(id, new Date(body.since), new Date(body.until), actor) };
  }
}
