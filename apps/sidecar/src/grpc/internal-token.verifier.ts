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
 * Checks `x-internal-token` metadata on the internal RPCs (constant-time, `secretsEqual`). A peer
 * address that keeps presenting wrong tokens is refused with RESOURCE_EXHAUSTED and RetryInfo for
 * the rest of the window, right token or not (as the backend treats failed client secrets), so the
 * token cannot be guessed through the sidecar.
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
    const record = await this.failures?.peek(address);
    if (record !== undefined && !record.allowed) {
      metrics.rateLimitDecisions.labels(record.policy.name).inc();
      throw new SidecarError(
        'rate_limited',
        `too many failed internal token attempts from this address: retry after ${record.resetSeconds} s`,
        record.resetSeconds,
      );
    }
    const [presented] = metadata.get(INTERNAL_TOKEN_METADATA);
    if (typeof presented !== 'string' || presented === '' || !secretsEqual(presented, this.expected)) {
      await this.failures?.consume(address);
      throw new SidecarError('internal_token_invalid', 'missing or invalid internal token');
    }
  }
}
