import type { JsonWebKey } from 'node:crypto';
import type { Envelope } from '../secrets/envelope';
import { openText, sealText } from '../secrets/sealed-text';

const associatedData = (kid: string) => ['signing-key', kid].join('\0');

export function sealPrivateJwk(envelope: Envelope, kid: string, jwk: string): string {
  return sealText(envelope, associatedData(kid), jwk);
}

/**
 * The private JWK of a stored key, and how it is stored: sealed (under which KEK), or in the
 * clear as earlier releases wrote it (the ring seals those on load).
 */
export function openPrivateJwk(
  envelope: Envelope,
  kid: string,
  stored: string,
): { jwk: JsonWebKey; kekId: string | null } {
  const opened = openText(envelope, associatedData(kid), stored);
  return opened
    ? { jwk: JSON.parse(opened.text) as JsonWebKey, kekId: opened.kekId }
    : { jwk: JSON.parse(stored) as JsonWebKey, kekId: null };
}
