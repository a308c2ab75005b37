import type {
  RegisteredWebhookDto,
  WebhookDeliveryDto,
  WebhookEndpointDto,
  WebhookMessageDto,
} from '@platform/contract';
import {
  webhookMessageId,
  type AuditRecord,
  type RevealedWebhookEndpoint,
  type WebhookDeliveryLogEntry,
  type WebhookEndpoint,
} from '@platform/domain';
import { toAuditRecordResponse } from '../audit/audit-wire';

/** An endpoint as the API shows it: never its secrets. */
export function toWebhookEndpointResponse(endpoint: WebhookEndpoint): WebhookEndpointDto {
  return {
    id: endpoint.id,
    url: endpoint.url,
    description: endpoint.description,
    event_types: endpoint.eventTypes,
    tenant: endpoint.tenant,
    enabled: endpoint.disabledAt === null,
    previous_secret_expires_at: endpoint.previousSecretExpiresAt?.toISOString() ?? null,
    created_at: endpoint.createdAt.toISOString(),
    updated_at: endpoint.updatedAt.toISOString(),
  };
}

/** The one answer that carries the secret: registration and rotation. */
export function toRegisteredWebhookResponse(endpoint: RevealedWebhookEndpoint): RegisteredWebhookDto {
  return { ...toWebhookEndpointResponse(endpoint), secret: endpoint.secret };
}

export function toWebhookDeliveryResponse(delivery: WebhookDeliveryLogEntry): WebhookDeliveryDto {
  return {
    id: delivery.id,
    message_id: webhookMessageId(delivery.sequenceId),
    sequence_id: delivery.sequenceId,
    event_type: delivery.eventType,
    state: delivery.state,
    attempts: delivery.attempts,
    next_attempt_at: delivery.state === 'pending' ? delivery.nextAttemptAt.toISOString() : null,
    replay_of: delivery.replayOf,
    created_at: delivery.createdAt.toISOString(),
    log: delivery.log.map((attempt) => ({
      attempt: attempt.attempt,
      at: attempt.at.toISOString(),
      duration_ms: attempt.durationMs,
      status: attempt.status,
      error: attempt.error,
      response_excerpt: attempt.responseExcerpt,
    })),
  };
}

/** The body of a delivery: Standard Webhooks' `{type, timestamp, data}` around the audit record. */
export function webhookPayload(record: AuditRecord): string {
  const message: WebhookMessageDto = {
    type: record.action,
    timestamp: record.occurredAt.toISOString(),
    data: toAuditRecordResponse(record),
  };
  return JSON.stringify(message);
}
