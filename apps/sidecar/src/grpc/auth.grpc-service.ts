import type { Metadata, sendUnaryData, ServerUnaryCall, UntypedServiceImplementation } from '@grpc/grpc-js';
import { Injectable, Logger } from '@nestjs/common';
import { REQUEST_ID_METADATA, type JsonWebKeyMessage, type TokenClaims } from '@platform/grpc';
import type { JWK } from 'jose';
import { ControlPlaneClient } from '../control-plane/control-plane.client';
import { SidecarError } from '../errors';
import { Readiness } from '../health/readiness';
import { KeyCache } from '../keys/key-cache';
import { RevocationSync } from '../revocation/revocation-sync';
import { TokenValidator } from '../validation/token-validator';
import { InternalTokenGuard } from './internal-token.guard';
import { toGrpcStatus } from './status-mapper';

type Empty = Record<string, never>;
type TokenRequest = { token?: string };

const notReady = () => new SidecarError('not_ready', 'sidecar is starting');

/**
 * `platform.auth.v1.AuthService` as plain grpc-js unary handlers (no RxJS, no per-call
 * wrappers): each one calls a provider and answers through `toGrpcStatus` on failure.
 */
@Injectable()
export class AuthGrpcService {
  private readonly logger = new Logger('AuthService');

  constructor(
    private readonly validator: TokenValidator,
    private readonly keys: KeyCache,
    private readonly revocations: RevocationSync,
    private readonly controlPlane: ControlPlaneClient,
    private readonly internalToken: InternalTokenGuard,
    private readonly readiness: Readiness,
  ) {}

  /** The handlers, keyed by the method names of the .proto. */
  implementation(): UntypedServiceImplementation {
    return {
      ValidateToken: this.validateToken,
      RevokeToken: this.revokeToken,
      GetJwks: this.getJwks,
      SyncRevocations: this.syncRevocations,
    };
  }

  private readonly validateToken = (
    call: ServerUnaryCall<TokenRequest, { claims: TokenClaims }>,
    callback: sendUnaryData<{ claims: TokenClaims }>,
  ): void => {
    const token = call.request.token ?? '';
    if (!this.readiness.ready && token !== '')
      return this.fail('ValidateToken', call.metadata, callback, notReady());
    this.validator.validate(token).then(
      (claims) => callback(null, { claims }),
      (error: unknown) => this.fail('ValidateToken', call.metadata, callback, error),
    );
  };

  private readonly revokeToken = (
    call: ServerUnaryCall<TokenRequest, Empty>,
    callback: sendUnaryData<Empty>,
  ): void => {
    const requestId = requestIdOf(call.metadata);
    const run = async (): Promise<Empty> => {
      this.internalToken.assert(call.metadata);
      const token = call.request.token ?? '';
      if (token === '') throw new SidecarError('token_missing', 'token is empty');
      await this.controlPlane.revokeAccessToken(token, requestId);
      try {
        await this.revocations.syncNow(requestId);
      } catch (error) {
        // Persisted by the control plane: the stream or the next poll applies it here.
        this.logger.warn(
          `${prefix(requestId)}revoked, but the local sync failed: ${(error as Error).message}`,
        );
      }
      return {};
    };
    run().then(
      (response) => callback(null, response),
      (error: unknown) => this.fail('RevokeToken', call.metadata, callback, error),
    );
  };

  private readonly getJwks = (
    _call: ServerUnaryCall<Empty, { keys: JsonWebKeyMessage[] }>,
    callback: sendUnaryData<{ keys: JsonWebKeyMessage[] }>,
  ): void => {
    callback(null, { keys: this.keys.publicKeys().map(toJsonWebKeyMessage) });
  };

  private readonly syncRevocations = (
    call: ServerUnaryCall<Empty, { last_seq: number }>,
    callback: sendUnaryData<{ last_seq: number }>,
  ): void => {
    const requestId = requestIdOf(call.metadata);
    const run = async (): Promise<{ last_seq: number }> => {
      this.internalToken.assert(call.metadata);
      return { last_seq: await this.revocations.syncNow(requestId) };
    };
    run().then(
      (response) => callback(null, response),
      (error: unknown) => this.fail('SyncRevocations', call.metadata, callback, error),
    );
  };

  private fail(method: string, metadata: Metadata, callback: sendUnaryData<never>, error: unknown): void {
    const failure = toGrpcStatus(error);
    if (!(error instanceof SidecarError)) {
      const requestId = requestIdOf(metadata);
      this.logger.error(
        `${prefix(requestId)}${method} failed: ${(error as Error)?.name ?? 'error'}: ${(error as Error)?.message ?? ''}`,
      );
    } else if (error.code === 'control_plane_unavailable' || error.code === 'control_plane_rejected') {
      this.logger.warn(`${prefix(requestIdOf(metadata))}${method}: ${error.message}`);
    }
    callback(failure);
  }
}

/** The caller's correlation id, if it sent a sane one. */
function requestIdOf(metadata: Metadata): string | undefined {
  const [value] = metadata.get(REQUEST_ID_METADATA);
  return typeof value === 'string' && /^[\w.:-]{1,128}$/.test(value) ? value : undefined;
}

const prefix = (requestId: string | undefined): string => (requestId ? `[${requestId}] ` : '');

function toJsonWebKeyMessage(jwk: JWK): JsonWebKeyMessage {
  return {
    kty: jwk.kty ?? '',
    use: jwk.use ?? '',
    alg: jwk.alg ?? '',
    kid: jwk.kid ?? '',
    n: jwk.n ?? '',
    e: jwk.e ?? '',
  };
}
