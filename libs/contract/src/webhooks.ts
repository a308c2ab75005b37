import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import {
  EVENT_TYPE_PATTERN,
  MAX_SECRET_OVERLAP_SECONDS,
  WEBHOOK_DELIVERY_STATES,
  WEBHOOK_MAX_ATTEMPTS,
  WEBHOOK_URL_MAX_LENGTH,
  type WebhookDeliveryState,
} from '@platform/domain';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsDateString,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  MinLength,
} from 'class-validator';
import { AuditRecordDto } from './audit';
import { TimestampProperty } from './fields';
import { operation } from './operation-table';
import { CursorPageQueryDto } from './paging';

/** Shapes only: the registry checks the URL against the network policy and each event type's form. */

const URL_PROPERTY = {
  type: 'string',
  format: 'uri',
  maxLength: WEBHOOK_URL_MAX_LENGTH,
  description:
    'Where deliveries are POSTed. In production `https` to a public address only (no loopback, private or link-local ranges; checked again on every connection); `WEBHOOK_ALLOW_PRIVATE_URLS=true` lifts that.',
  example: 'https://hooks.example.com/platform',
} as const;
const EVENT_TYPES_PROPERTY = {
  type: 'string',
  isArray: true,
  minItems: 1,
  maxItems: 50,
  pattern: EVENT_TYPE_PATTERN.source,
  description:
    'Audit actions it receives: exact (`token.revoked`), a prefix (`token.*`: every token event), or `*` for all.',
  example: ['token.*', 'app.deleted'],
} as const;
const DESCRIPTION_PROPERTY = { type: 'string', maxLength: 500, description: 'For people.' } as const;

@ApiSchema({ name: 'WebhookRegistration' })
export class RegisterWebhookDto {
  @ApiProperty(URL_PROPERTY)
  @IsString()
  @MaxLength(WEBHOOK_URL_MAX_LENGTH)
  url: string;

  @ApiProperty(EVENT_TYPES_PROPERTY)
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @MaxLength(128, { each: true })
  event_types: string[];

  @ApiPropertyOptional({
    type: 'string',
    nullable: true,
    maxLength: 128,
    description: 'Only this tenant’s events. Absent or null: every event, platform-wide ones included.',
  })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(128)
  tenant?: string | null;

  @ApiPropertyOptional(DESCRIPTION_PROPERTY)
  @IsOptional()
  @IsString()
  @MaxLength(500)
  description?: string;

  @ApiPropertyOptional({ type: 'boolean', default: true, description: 'false registers it disabled.' })
  @IsOptional()
  @IsBoolean()
  enabled?: boolean;
}

@ApiSchema({
  name: 'WebhookChange',
  description:
    'The fields to change; the others stay. Enabling again delivers from then on (replay for the gap).',
})
export class UpdateWebhookDto {
  @ApiPropertyOptional(URL_PROPERTY)
  @IsOptional()
  @IsString()
  @MaxLength(WEBHOOK_URL_MAX_LENGTH)
  url?: string;

  @ApiPropertyOptional(EVENT_TYPES_PROPERTY)
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @MaxLength(128, { each: true })
  event_types?: string[];

  @ApiPropertyOptional(DESCRIPTION_PROPERTY)
  @IsOptional()
  @IsString()
  @MaxLength(500)
  description?: string;

  @ApiPropertyOptional({ type: 'boolean' })
  @IsOptional()
  @IsBoolean()
  enabled?: boolean;
}

@ApiSchema({ name: 'WebhookEndpoint', description: 'Never carries its secret.' })
export class WebhookEndpointDto {
  @ApiProperty({ description: '`wh_` and 22 characters.', example: 'wh_2mV9qXkq0bq3n8Qy7Zc1Aw' }) id: string;
  @ApiProperty(URL_PROPERTY) url: string;
  @ApiProperty(DESCRIPTION_PROPERTY) description: string;
  @ApiProperty(EVENT_TYPES_PROPERTY) event_types: string[];
  @ApiProperty({ type: 'string', nullable: true }) tenant: string | null;
  @ApiProperty() enabled: boolean;
  @ApiProperty({
    type: 'string',
    format: 'date-time',
    nullable: true,
    description: 'Until then the previous secret signs beside the current one (after a rotation).',
  })
  previous_secret_expires_at: string | null;
  @TimestampProperty() created_at: string;
  @TimestampProperty() updated_at: string;
}

@ApiSchema({
  name: 'RegisteredWebhook',
  description: 'The endpoint with its signing secret, shown this once.',
})
export class RegisteredWebhookDto extends WebhookEndpointDto {
  @ApiProperty({
    description: 'Standard Webhooks secret (`whsec_` + base64): verify `webhook-signature` with it.',
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  })
  secret: string;
}

export class RotateWebhookSecretDto {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 0,
    maximum: MAX_SECRET_OVERLAP_SECONDS,
    default: 86_400,
    description: 'How long the previous secret keeps signing beside the new one; 0 retires it at once.',
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(MAX_SECRET_OVERLAP_SECONDS)
  overlap_seconds?: number;
}

@ApiSchema({ name: 'WebhookAttempt' })
export class WebhookAttemptDto {
  @ApiProperty({ type: 'integer', minimum: 1, maximum: WEBHOOK_MAX_ATTEMPTS }) attempt: number;
  @TimestampProperty() at: string;
  @ApiProperty({ type: 'integer' }) duration_ms: number;
  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'The receiver’s HTTP status; null: no answer.',
  })
  status: number | null;
  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'Why there was no answer: refused, unreachable, timed out, a forbidden address.',
  })
  error: string | null;
  @ApiProperty({ type: 'string', nullable: true, description: 'The first KiB of the receiver’s answer.' })
  response_excerpt: string | null;
}

@ApiSchema({ name: 'WebhookDelivery', description: 'One audit record on its way to one endpoint.' })
export class WebhookDeliveryDto {
  @ApiProperty({ type: 'integer' }) id: number;
  @ApiProperty({
    description: 'The `webhook-id` header: one per audit record, the same on every attempt and replay.',
    example: 'msg_42',
  })
  message_id: string;
  @ApiProperty({ type: 'integer', description: 'The audit record it carries.' }) sequence_id: number;
  @ApiProperty({ example: 'token.revoked' }) event_type: string;
  @ApiProperty({
    enum: WEBHOOK_DELIVERY_STATES,
    description: `\`pending\` (due at \`next_attempt_at\`), \`succeeded\` (a 2xx), \`dead\` (${WEBHOOK_MAX_ATTEMPTS} attempts failed; replay it).`,
  })
  state: WebhookDeliveryState;
  @ApiProperty({ type: 'integer' }) attempts: number;
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true, description: 'While pending.' })
  next_attempt_at: string | null;
  @ApiProperty({ type: 'integer', nullable: true, description: 'The delivery a replay repeats.' })
  replay_of: number | null;
  @TimestampProperty() created_at: string;
  @ApiProperty({ type: () => WebhookAttemptDto, isArray: true }) log: WebhookAttemptDto[];
}

@ApiSchema({ name: 'WebhookDeliveryPage', description: 'Oldest first; pass `next_after` back as `after`.' })
export class WebhookDeliveryPageDto {
  @ApiProperty({ type: () => WebhookDeliveryDto, isArray: true }) deliveries: WebhookDeliveryDto[];
  @ApiProperty({ type: 'integer' }) next_after: number;
}

export class ListWebhookDeliveriesQueryDto extends CursorPageQueryDto {
  @ApiPropertyOptional({ enum: WEBHOOK_DELIVERY_STATES })
  @IsOptional()
  @IsIn(WEBHOOK_DELIVERY_STATES)
  state?: WebhookDeliveryState;
}

@ApiSchema({
  name: 'WebhookReplayRange',
  description:
    'Every audit record of [since, until) the endpoint subscribes to, queued again (at most 10,000).',
})
export class ReplayWebhookRangeDto {
  @ApiProperty({ type: 'string', format: 'date-time' })
  @IsDateString({ strict: true })
  since: string;

  @ApiProperty({ type: 'string', format: 'date-time' })
  @IsDateString({ strict: true })
  until: string;
}

@ApiSchema({ name: 'WebhookReplay' })
export class WebhookReplayDto {
  @ApiProperty({ type: 'integer', description: 'Deliveries queued.' }) queued: number;
}

@ApiSchema({
  name: 'WebhookMessage',
  description:
    'The body of every delivery (Standard Webhooks): signed with `webhook-id`, `webhook-timestamp` and `webhook-signature` (`v1,<base64 HMAC-SHA256>` per active secret, space separated).',
})
export class WebhookMessageDto {
  @ApiProperty({ description: 'The audit action.', example: 'token.revoked' }) type: string;
  @TimestampProperty({ description: 'When the event happened.' }) timestamp: string;
  @ApiProperty({ type: () => AuditRecordDto, description: 'The audit record, as the audit API shows it.' })
  data: AuditRecordDto;
}

const WEBHOOKS_PATH = 'api/v1/webhooks';
const WEBHOOK_PATH = `${WEBHOOKS_PATH}/:id`;
const ADMIN = { kind: 'admin' } as const;
const WEBHOOK = { id: { description: 'The endpoint’s `wh_` id.' } };
const NO_ENDPOINT = 'No such webhook endpoint.';

/**
 * Webhook endpoints, their delivery log and replays (docs/webhooks.md); admin Bearer token, same
 * paths at the edge and the control plane.
 */
export const WEBHOOK_OPERATIONS = {
  register: operation({
    id: 'registerWebhook',
    tag: 'Webhooks',
    summary: 'Register a webhook endpoint',
    description:
      'The endpoint receives every audit record from now on whose action matches `event_types` (token events included: `token.*`) and, when `tenant` is set, of that tenant only, as Standard Webhooks messages (`WebhookMessage`): POST, JSON, signed with the `secret` of this answer, shown this once. A 2xx is success; anything else is retried 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h later, then the delivery is dead (replay it). The same record always carries the same `webhook-id`: deduplicate on it. Order is not guaranteed; `data.sequence_id` gives the log’s order. See docs/webhooks.md.',
    method: 'POST',
    path: WEBHOOKS_PATH,
    caller: ADMIN,
    body: { type: 'json', model: RegisterWebhookDto },
    answer: { status: 201, model: RegisteredWebhookDto, description: 'Registered, with its secret.' },
    refuses: {
      400: 'A URL that is not absolute http(s), has credentials or a fragment, or (production) is not https to a public address; a malformed event type.',
    },
    models: [WebhookMessageDto],
  }),
  list: operation({
    id: 'listWebhooks',
    tag: 'Webhooks',
    summary: 'List webhook endpoints',
    method: 'GET',
    path: WEBHOOKS_PATH,
    caller: ADMIN,
    answer: {
      status: 200,
      model: [WebhookEndpointDto],
      description: 'Every endpoint, oldest first, without secrets.',
    },
  }),
  get: operation({
    id: 'getWebhook',
    tag: 'Webhooks',
    summary: 'One webhook endpoint',
    method: 'GET',
    path: WEBHOOK_PATH,
    caller: ADMIN,
    params: WEBHOOK,
    answer: { status: 200, model: WebhookEndpointDto, description: 'The endpoint, without its secret.' },
    refuses: { 404: NO_ENDPOINT },
  }),
  update: operation({
    id: 'updateWebhook',
    tag: 'Webhooks',
    summary: 'Change, disable or enable a webhook endpoint',
    description:
      'Changes the given fields. A disabled endpoint gets nothing queued and nothing sent; its pending deliveries wait. Enabling it again delivers what happens from then on (replay a range for the gap).',
    method: 'PATCH',
    path: WEBHOOK_PATH,
    caller: ADMIN,
    params: WEBHOOK,
    body: { type: 'json', model: UpdateWebhookDto },
    answer: { status: 200, model: WebhookEndpointDto, description: 'The endpoint as changed.' },
    refuses: { 400: 'A refused URL or event type.', 404: NO_ENDPOINT },
  }),
  delete: operation({
    id: 'deleteWebhook',
    tag: 'Webhooks',
    summary: 'Delete a webhook endpoint',
    description: 'With its pending deliveries and its delivery log.',
    method: 'DELETE',
    path: WEBHOOK_PATH,
    caller: ADMIN,
    params: WEBHOOK,
    answer: { status: 204, description: 'Deleted; no body.' },
    refuses: { 404: NO_ENDPOINT },
  }),
  rotateSecret: operation({
    id: 'rotateWebhookSecret',
    tag: 'Webhooks',
    summary: 'Rotate a webhook endpoint’s secret',
    description:
      'A new secret, shown once. For `overlap_seconds` (default a day, at most 7 days) every delivery carries two signatures, one per secret, so the receiver can switch to the new one at its own pace. An empty body takes the default.',
    method: 'POST',
    path: `${WEBHOOK_PATH}/secret`,
    caller: ADMIN,
    params: WEBHOOK,
    body: { type: 'json', model: RotateWebhookSecretDto },
    answer: { status: 200, model: RegisteredWebhookDto, description: 'The endpoint with its new secret.' },
    refuses: { 400: '`overlap_seconds` out of range.', 404: NO_ENDPOINT },
  }),
  deliveries: operation({
    id: 'listWebhookDeliveries',
    tag: 'Webhooks',
    summary: 'The delivery log of an endpoint',
    description:
      'Its deliveries, oldest first, each with every attempt: when, how long, the status or the error, and the start of the answer.',
    method: 'GET',
    path: `${WEBHOOK_PATH}/deliveries`,
    caller: ADMIN,
    params: WEBHOOK,
    query: ListWebhookDeliveriesQueryDto,
    answer: { status: 200, model: WebhookDeliveryPageDto, description: 'One page of deliveries.' },
    refuses: { 400: 'A malformed filter.', 404: NO_ENDPOINT },
  }),
  replayDelivery: operation({
    id: 'replayWebhookDelivery',
    tag: 'Webhooks',
    summary: 'Send one delivery again',
    description:
      'Queues its record again as a new delivery with a fresh retry schedule (same `webhook-id`). No body.',
    method: 'POST',
    path: `${WEBHOOK_PATH}/deliveries/:delivery_id/replay`,
    caller: ADMIN,
    params: { delivery_id: { example: 42 }, ...WEBHOOK }, // the document's order
    answer: { status: 202, model: WebhookDeliveryDto, description: 'The new delivery.' },
    refuses: { 400: 'The delivery id is not an integer.', 404: 'No such delivery of this endpoint.' },
  }),
  replayRange: operation({
    id: 'replayWebhookRange',
    tag: 'Webhooks',
    summary: 'Send a time range again',
    description:
      'Queues every audit record of `[since, until)` that the endpoint subscribes to (its tenant and event types), including from before it was registered, oldest first. More than 10,000: **400**, split the range.',
    method: 'POST',
    path: `${WEBHOOK_PATH}/replay`,
    caller: ADMIN,
    params: WEBHOOK,
    body: { type: 'json', model: ReplayWebhookRangeDto },
    answer: { status: 202, model: WebhookReplayDto, description: 'How many deliveries were queued.' },
    refuses: {
      400: 'A malformed or empty range, or one holding more than 10,000 records.',
      404: NO_ENDPOINT,
    },
  }),
};
