import { createHash, timingSafeEqual } from 'node:crypto';
import type { Metadata } from '@grpc/grpc-js';
import { Inject, Injectable } from '@nestjs/common';
import { INTERNAL_TOKEN_METADATA } from '@platform/grpc';
import { SIDECAR_CONFIG, type SidecarConfig } from '../config/sidecar-config';
import { SidecarError } from '../errors';

const digest = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();

/**
 * Checks `x-internal-token` metadata on the mutating RPCs. Both sides are hashed to 32 bytes
 * first, so `timingSafeEqual` always compares equal-length buffers and the length of the
 * expected token does not leak either.
 */
@Injectable()
export class InternalTokenVerifier {
  private readonly expected: Buffer;

  constructor(@Inject(SIDECAR_CONFIG) config: SidecarConfig) {
    this.expected = digest(config.internalToken);
  }

  assert(metadata: Metadata): void {
    const [presented] = metadata.get(INTERNAL_TOKEN_METADATA);
    if (
      typeof presented !== 'string' ||
      presented === '' ||
      !timingSafeEqual(digest(presented), this.expected)
    ) {
      throw new SidecarError('internal_token_invalid', 'missing or invalid internal token');
    }
  }
}
