import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** Standard Webhooks secrets: `whsec_` and a base64 key (24 random bytes, as Svix makes them). */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

export interface WebhookMessage {
  /** `webhook-id`: the same for every attempt and replay of one record, so receivers can dedupe. */
  id: string;
  timestamp: Date;
  body: string;
}

/**
 * The three Standard Webhooks headers. `webhook-signature` carries one `v1,<base64 HMAC-SHA256>`
 * per secret, space separated: during a rotation's overlap both the new and the previous secret
 * sign, so a receiver that still has the old one keeps verifying.
 */
export function webhookHeaders(message: WebhookMessage, secrets: readonly string[]): Record<string, string> {
  return {
    'webhook-id': message.id,
    'webhook-timestamp': String(Math.floor(message.timestamp.getTime() / 1000)),
    'webhook-signature': secrets
      .map((secret) => new Webhook(secret).sign(message.id, message.timestamp, message.body))
      .join(' '),
  };
}
