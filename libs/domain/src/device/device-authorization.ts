import { createHash, randomInt } from 'node:crypto';
import type { InsertResult } from '../storage';

/** RFC 8628 section 3.2: how long a device code and its user code live. */
export const DEVICE_CODE_LIFETIME_SECONDS = 600;

/** RFC 8628 section 3.2: the polling interval a device starts with (its default too). */
export const DEVICE_POLL_INTERVAL_SECONDS = 5;

/** RFC 8628 section 3.5: what each `slow_down` adds to the interval, for that poll and every later one. */
export const DEVICE_SLOW_DOWN_SECONDS = 5;

/**
 * RFC 8628 section 6.1's example alphabet: consonants only (no vowel, so no word is spelled), none
 * that reads as another (no 0/O, 1/I/L ambiguity). 20 letters, 8 of them: about 34.5 bits.
 */
export const USER_CODE_ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';
export const USER_CODE_LENGTH = 8;

/** The verification page's path on the backend (RFC 8628 section 3.2 `verification_uri`). */
export const DEVICE_VERIFICATION_PATH = '/device';

export type DeviceAuthorizationStatus = 'pending' | 'approved' | 'denied';

/** One device authorization request (RFC 8628 section 3.1), until its tokens are issued or it expires. */
export interface DeviceAuthorizationRecord {
  /** SHA-256 of the device code (`plat_dc_…`); the code itself is never stored. */
  deviceCodeHash: string;
  /** `userCodeHash` of the normalized user code; never stored in the clear either. */
  userCodeHash: string;
  /** The grant (refresh-token family) the tokens will start. */
  grantId: string;
  clientId: string;
  scopes: string[];
  status: DeviceAuthorizationStatus;
  /** The user who approved or denied; null while pending. */
  userId: string | null;
  createdAt: Date;
  expiresAt: Date;
  /** Seconds the device must wait between polls; grows by `DEVICE_SLOW_DOWN_SECONDS` at each `slow_down`. */
  intervalSeconds: number;
  lastPolledAt: Date | null;
  decidedAt: Date | null;
  /** When the tokens were issued: a device code is exchanged once. */
  consumedAt: Date | null;
}

/** The user's answer on the verification page. */
export interface DeviceDecision {
  status: 'approved' | 'denied';
  userId: string;
}

/** What recording a poll found. */
export interface DevicePoll {
  /** The request as it is after the poll (the interval grown when it came too soon). */
  record: DeviceAuthorizationRecord;
  /** The poll came before `intervalSeconds` had passed since the previous one (RFC 8628 section 3.5). */
  tooSoon: boolean;
}

export interface DeviceAuthorizationStore {
  /** `duplicate` when the user code is taken by another live request: draw another. */
  insertDeviceAuthorization(record: DeviceAuthorizationRecord): Promise<InsertResult>;
  findDeviceAuthorizationByUserCode(userCodeHash: string): Promise<DeviceAuthorizationRecord | null>;
  findDeviceAuthorization(deviceCodeHash: string): Promise<DeviceAuthorizationRecord | null>;
  /**
   * Records the user's decision on a request that is still pending and unexpired at `now`,
   * atomically (one decision wins). The record as decided, or null when there was none to decide.
   */
  decideDeviceAuthorization(
    userCodeHash: string,
    decision: DeviceDecision,
    now: Date,
  ): Promise<DeviceAuthorizationRecord | null>;
  /**
   * Records a poll at `now`, atomically with the interval check: a poll less than the interval
   * after the previous one is `tooSoon` and grows the interval by `DEVICE_SLOW_DOWN_SECONDS`.
   * Null when there is no such device code.
   */
  recordDevicePoll(deviceCodeHash: string, now: Date): Promise<DevicePoll | null>;
  /**
   * Marks an approved request's tokens issued if they were not, atomically: true for the one
   * caller that did it, false for any other (or when it is not approved).
   */
  consumeDeviceAuthorization(deviceCodeHash: string, now: Date): Promise<boolean>;
  /** Deletes at most `limit` requests that expired at or before `before`; answers how many. */
  pruneDeviceAuthorizations(before: Date, limit: number): Promise<number>;
}

/** A fresh user code, drawn uniformly from the alphabet (crypto's `randomInt`), undashed. */
export function generateUserCode(): string {
  let code = '';
  for (let i = 0; i < USER_CODE_LENGTH; i += 1)
    code += USER_CODE_ALPHABET[randomInt(USER_CODE_ALPHABET.length)];
  return code;
}

/** As it is shown and typed: `BCDF-GHJK`. */
export function formatUserCode(code: string): string {
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

/**
 * The user code as typed, in its canonical form (upper case, without the dash or spaces), or
 * undefined when it cannot be one (wrong length or a letter outside the alphabet).
 */
export function normalizeUserCode(typed: string): string | undefined {
  const code = typed.replace(/[\s-]/g, '').toUpperCase();
  if (code.length !== USER_CODE_LENGTH) return undefined;
  return [...code].every((letter) => USER_CODE_ALPHABET.includes(letter)) ? code : undefined;
}

/** What the store keys a user code by: the SHA-256 of its canonical form. */
export function userCodeHash(code: string): string {
  return createHash('sha256').update(`user_code\u0000${code}`).digest('base64url');
}
