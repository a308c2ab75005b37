import type { Envelope } from '../secrets/envelope';
import { isSealedText, openText, sealText } from '../secrets/sealed-text';

/** Bound to its endpoint: a sealed secret copied onto another endpoint's row does not open. */
const associatedData = (endpointId: string) => ['webhook-secret', endpointId].join('\0');

export function sealWebhookSecret(envelope: Envelope, endpointId: string, secret: string): string {
  return sealText(envelope, associatedData(endpointId), secret);
}

/** The secret of a stored one: sealed, or in the clear as earlier releases wrote it. */
export function openWebhookSecret(envelope: Envelope, endpointId: string, stored: string): string {
  return openText(envelope, associatedData(endpointId), stored)?.text ?? stored;
}

/** A stored secret in the sealed form: as it is when sealed, sealed when an earlier release left it clear. */
export function ensureSealedWebhookSecret(envelope: Envelope, endpointId: string, stored: string): string {
  return isSealedText(stored) ? stored : sealWebhookSecret(envelope, endpointId, stored);
}
