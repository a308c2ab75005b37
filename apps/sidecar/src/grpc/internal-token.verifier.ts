import type { Metadata } from '@grpc/grpc-js';
import { Inject, Injectable } from '@nestjs/common';
import { secretsEqual } from '@platform/domain';
import { INTERNAL_TOKEN_METADATA } from '@platform/grpc';
import { SIDECAR_CONFIG, type SidecarConfig } from '../config/sidecar-config';
import { SidecarError } from '../errors';

/** Checks `x-internal-token` metadata on the mutating RPCs (constant-time, `secretsEqual`). */
@Injectable()
export class InternalTokenVerifier {
  private readonly expected: string;

  constructor(@Inject(SIDECAR_CONFIG) config: SidecarConfig) {
    this.expected = config.internalToken;
  }

  assert(metadata: Metadata): void {
    const [presented] = metadata.get(INTERNAL_TOKEN_METADATA);
    if (typeof presented !== 'string' || presented === '' || !secretsEqual(presented, this.expected)) {
      throw new SidecarError('internal_token_invalid', 'missing or invalid internal token');
    }
  }
}
