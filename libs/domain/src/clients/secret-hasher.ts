import { randomBytes, timingSafeEqual } from 'node:crypto';
import * as argon2 from 'argon2';
import pLimit from 'p-limit';
import { DomainError } from '../errors';
import { SecretDigests } from './secret-digests';

export interface SecretHasher {
  hash(secret: string): Promise<string>;
  verify(hash: string, secret: string): Promise<boolean>;
}

export const argon2idHasher: SecretHasher = {
  hash: (secret) => argon2.hash(secret, { type: argon2.argon2id }),
  verify: async (hash, secret) => {
    try {
      return await argon2.verify(hash, secret);
    } catch {
      return false; // a malformed stored hash never authenticates
    }
  },
};

/**
 * Verifications that may wait, per run allowed at once. Enough that clients starting together
 * (a fleet restarting, each secret not yet in the cache) wait rather than fail; few enough that a
 * flood is refused instead of queued: a new client's first request waits behind every
 * verification queued before it (bench row `issuance-argon2-flood`).
 */
export const QUEUED_PER_RUN = 4;

/**
 * At most `concurrency` argon2 runs (verifications and hashes) at once; the others wait their
 * turn. Each run takes a core's worth of CPU and 64 MiB (in the control plane, in one of its
 * `Argon2Processes`): a flood of wrong secrets from many addresses would otherwise queue without
 * end. A verification that would wait behind `queuedPerRun` per run is refused at once as
 * unavailable (503 temporarily_unavailable). Secrets that passed once are answered by
 * VerifiedSecretCache above this, without waiting.
 */
export function boundedArgon2(
  inner: SecretHasher,
  concurrency: number,
  queuedPerRun = QUEUED_PER_RUN,
): SecretHasher {
  const limit = pLimit(concurrency);
  return {
    hash: (secret) => limit(() => inner.hash(secret)),
    verify: (hash, secret) => {
      if (limit.activeCount + limit.pendingCount >= concurrency * (1 + queuedPerRun)) {
        return Promise.reject(new DomainError('unavailable', 'Too many client authentications at once'));
      }
      return limit(() => inner.verify(hash, secret));
    },
  };
}

/** A client secret in the form we hand out: 256 random bits. */
export function generateClientSecret(): string {
  return randomBytes(32).toString('base64url');
}

const MAX_ENTRIES = 10_000;

/**
 * Remembers secrets that already passed argon2 verification, so a client asking for tokens
 * all day pays for argon2 once. An entry is bound to the stored hash it was verified against:
 * rotating the secret or deleting the app changes or removes that hash, so the old secret
 * fails at once on every replica. Only a digest of the secret is kept (SecretDigests), and it
 * is compared in constant time.
 */
export class VerifiedSecretCache implements SecretHasher {
  private readonly digests = new SecretDigests();
  private readonly verified = new Map<string, Buffer>();
  /** argon2 runs under way, so a burst of first requests from one client pays for it once. */
  private readonly inFlight = new Map<string, Promise<boolean>>();

  constructor(private readonly inner: SecretHasher) {}

  hash(secret: string): Promise<string> {
    return this.inner.hash(secret);
  }

  async verify(hash: string, secret: string): Promise<boolean> {
    const digest = this.digests.of(hash, secret);
    const known = this.verified.get(hash);
    if (known && timingSafeEqual(known, digest)) return true;
    // Keyed by the digest (hash and secret together): only identical attempts share a run.
    const attempt = digest.toString('base64');
    let pending = this.inFlight.get(attempt);
    if (!pending) {
      pending = this.verifyAndRemember(hash, secret, digest).finally(() => this.inFlight.delete(attempt));
      this.inFlight.set(attempt, pending);
    }
    return pending;
  }

  private async verifyAndRemember(hash: string, secret: string, digest: Buffer): Promise<boolean> {
    if (!(await this.inner.verify(hash, secret))) return false;
    if (this.verified.size >= MAX_ENTRIES) this.verified.delete(this.verified.keys().next().value!);
    this.verified.set(hash, digest);
    return true;
  }
}
