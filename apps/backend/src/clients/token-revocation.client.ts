import { Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import * as grpc from '@grpc/grpc-js';
import { DomainError } from '@platform/domain';
import { type AuthServiceClient, createAuthServiceClient, INTERNAL_TOKEN_METADATA } from '@platform/grpc';

const CALL_DEADLINE_MS = 5_000;

/**
 * The sidecar's `RevokeToken` (docs/internal-api.md): the control plane persists the revocation
 * and the sidecar applies it before answering, so this backend refuses the token at once.
 */
@Injectable()
export class TokenRevocationClient implements OnModuleDestroy {
  private readonly logger = new Logger(TokenRevocationClient.name);
  private readonly auth: AuthServiceClient;

  constructor(
    address: string,
    private readonly internalToken: string,
  ) {
    this.auth = createAuthServiceClient(address);
  }

  /**
   * Revokes an access token. A token the control plane cannot read (unknown, malformed) is not
   * an error: RFC 7009 answers the same for every token. Failures to reach the sidecar: 503.
   */
  revokeToken(token: string): Promise<void> {
    const metadata = new grpc.Metadata();
    metadata.set(INTERNAL_TOKEN_METADATA, this.internalToken);
    return new Promise((resolve, reject) => {
      this.auth.RevokeToken(
        { token },
        metadata,
        { deadline: new Date(Date.now() + CALL_DEADLINE_MS) },
        (error) => {
          if (!error || error.code === grpc.status.INVALID_ARGUMENT) return resolve();
          this.logger.warn(`RevokeToken failed: ${grpc.status[error.code] ?? error.code}`);
          reject(new DomainError('unavailable', 'Token revocation is unavailable'));
        },
      );
    });
  }

  onModuleDestroy(): void {
    this.auth.close();
  }
}
