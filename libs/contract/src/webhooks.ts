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
