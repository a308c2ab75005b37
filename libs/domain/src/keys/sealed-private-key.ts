import type { JsonWebKey } from 'node:crypto';
import type { Envelope, SealedValue } from '../vault/envelope';

/** How a signing key's private JWK is stored: `{"sealed": SealedValue}` (docs/secrets.md). */
interface StoredPrivateKey {
  sealed?: SealedValue;
}

const associatedData = (kid: string) => ['signing-key', kid].join('\0');

export function sealPrivateJwk(envelope: Envelope, kid: string, jwk: string): string {
  return JSON.stringify({ sealed: envelope.seal(Buffer.from(jwk, 'utf8'), associatedData(kid)) });
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
  const parsed = JSON.parse(stored) as StoredPrivateKey & JsonWebKey;
  if (!parsed.sealed) return { jwk: parsed, kekId: null };
  const jwk = JSON.parse(envelope.open(parsed.sealed, associatedData(kid)).toString('utf8')) as JsonWebKey;
  return { jwk, kekId: parsed.sealed.kekId };
}

/** The stored form rewrapped under the current KEK; null when it already is. */
export function rewrapPrivateJwk(envelope: Envelope, stored: string): string | null {
  const { sealed } = JSON.parse(stored) as StoredPrivateKey;
  const moved = sealed && envelope.rewrap(sealed);
  return moved ? JSON.stringify({ sealed: moved }) : null;
}
