import type { Metadata } from '@grpc/grpc-js';
import { Inject, Injectable } from '@nestjs/common';
import { secretsEqual } from '@platform/domain';
import { INTERNAL_TOKEN_METADATA } from '@platform/grpc';
import type { RateLimit } from '@platform/ratelimit';
import { metrics } from '@platform/telemetry';
import { SIDECAR_CONFIG, type SidecarConfig } from '../config/sidecar-config';
import { SidecarError } from '../errors';
import { SidecarCounters } from '../ratelimit/sidecar-counters';

/**
 * Checks `x-internal-token` metadata on the internal RPCs (constant-time, `secretsEqual`). The
 * right token always passes. Wrong or missing ones are counted per peer address; past the quota
 * they are answered RESOURCE_EXHAUSTED with RetryInfo for the rest of the window. Only failures
 * are limited: every process on the host shares the loopback address, and one that guesses must
 * not lock the backend beside it out. The token's length (at least 32 characters) is what makes it
 * unguessable; the count makes a guessing caller visible and cheap to answer.
 */
@Injectable()
export class InternalTokenVerifier {
  private readonly expected: string;
  private readonly failures: RateLimit | undefined;

  constructor(@Inject(SIDECAR_CONFIG) config: SidecarConfig, counters: SidecarCounters) {
    this.expected = config.internalToken;
    const window = config.failedAuthWindowSeconds;
    this.failures =
      config.failedAuthPerPeer > 0
        ? counters.limit({
            name: 'failed-internal-token',
            quota: config.failedAuthPerPeer,
            windowSeconds: window,
            blockSeconds: window,
          })
        : undefined;
  }

  /** `address`: the caller's remote address (every connection of one host counts together). */
  async assert(metadata: Metadata, address: string): Promise<void> {
    const [presented] = metadata.get(INTERNAL_TOKEN_METADATA);
    if (typeof presented === 'string' && presented !== '' && secretsEqual(presented, this.expected)) return;
    const record = await this.failures?.consume(address);
    if (record !== undefined && !record.allowed) {
      metrics.rateLimitDecisions.labels(record.policy.name).inc();
      throw new SidecarError(
        'rate_limited',
        `too many failed internal token attempts from this address: retry after ${record.resetSeconds} s`,
        record.resetSeconds,
      );
    }
    throw new SidecarError('internal_token_invalid', 'missing or invalid internal token');
  }
}
