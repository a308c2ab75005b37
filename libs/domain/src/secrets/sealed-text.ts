import { DomainError } from '../errors';
import type { Envelope, SealedValue } from './envelope';

/** How a value sealed into a text column is stored: `{"sealed": SealedValue}` (docs/secrets.md). */
interface StoredSealed {
  sealed?: SealedValue;
}

export function sealText(envelope: Envelope, associatedData: string, text: string): string {
  return JSON.stringify({ sealed: envelope.seal(Buffer.from(text, 'utf8'), associatedData) });
}

/**
 * The text of a stored value and the KEK it is sealed under; null for a value an earlier release
 * stored in the clear (the caller reads it as it is, and seals it).
 */
export function openText(
  envelope: Envelope,
  associatedData: string,
  stored: string,
): { text: string; kekId: string } | null {
  const sealed = sealedOf(stored);
  if (!sealed) return null;
  return { text: envelope.open(sealed, associatedData).toString('utf8'), kekId: sealed.kekId };
}

/** The stored form with its data key wrapped by the current KEK; null when it already is, or is clear. */
export function rewrapText(envelope: Envelope, stored: string): string | null {
  const sealed = sealedOf(stored);
  const moved = sealed && envelope.rewrap(sealed);
  return moved ? JSON.stringify({ sealed: moved }) : null;
}

/** Whether a stored value is in the sealed form; `unavailable` when it is damaged. */
export function isSealedText(stored: string): boolean {
  return sealedOf(stored) !== undefined;
}

/**
 * The sealed value of a stored one; undefined for a value stored in the clear (a webhook secret,
 * or a private JWK, which is JSON without `sealed`). A value that is neither is damaged: that is
 * `unavailable` (503) for whoever needs it, as a value that does not verify is.
 */
function sealedOf(stored: string): SealedValue | undefined {
  if (!stored.startsWith('{')) return undefined;
  let parsed: StoredSealed;
  try {
    parsed = JSON.parse(stored) as StoredSealed;
  } catch {
    throw damaged();
  }
  if (parsed.sealed === undefined) return undefined;
  const { ciphertext, wrappedKey, kekId } = parsed.sealed ?? {};
  if (typeof ciphertext !== 'string' || typeof wrappedKey !== 'string' || typeof kekId !== 'string')
    throw damaged();
  return parsed.sealed;
}

const damaged = () =>
  new DomainError('unavailable', 'a stored sealed value is damaged: it is not in the sealed form');
