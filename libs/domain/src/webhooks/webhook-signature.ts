import { createHmac, randomBytes } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';

/** Standard Webhooks secrets: `whsec_` and a base64 key (24 random bytes, as Svix makes them). */
export function newWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(24).toString('base64')}`;
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
 *
 * The HMAC of `id.timestamp.body` under the secret's key is the scheme's whole signature; it is
 * computed with node:crypto because the `standardwebhooks` package hashes in JavaScript (about 30
 * µs a message against 7; docs/decisions.md). The tests verify every message with that package.
 */
export function webhookHeaders(message: WebhookMessage, secrets: readonly string[]): Record<string, string> {
  const timestamp = String(Math.floor(message.timestamp.getTime() / 1000));
  const signed = `${message.id}.${timestamp}.${message.body}`;
  return {
    'webhook-id': message.id,
    'webhook-timestamp': timestamp,
    'webhook-signature': secrets
      .map((secret) => `v1,${createHmac('sha256', keyOf(secret)).update(signed).digest('base64')}`)
      .join(' '),
  };
}

function keyOf(secret: string): Buffer {
  return Buffer.from(
    secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret,
    'base64',
  );
}
