import { Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import * as grpc from '@grpc/grpc-js';
import { BearerError, DomainError } from '@platform/domain';
import {
  type AuthServiceClient,
  createAuthServiceClient,
  INTERNAL_TOKEN_METADATA,
  REQUEST_ID_METADATA,
  type TokenClaims,
} from '@platform/grpc';
import { service as healthService } from 'grpc-health-check';

const CALL_DEADLINE_MS = 2_000;
const HEALTH_DEADLINE_MS = 1_000;
/** The sidecar reports this service SERVING once its keys and deny-list are loaded. */
const AUTH_SERVICE_NAME = 'platform.auth.v1.AuthService';

export type SidecarState = 'connected' | 'unavailable';

interface HealthClient extends grpc.Client {
  Check(
    request: { service: string },
    metadata: grpc.Metadata,
    options: Partial<grpc.CallOptions>,
    callback: (error: grpc.ServiceError | null, response: { status: string }) => void,
  ): grpc.ClientUnaryCall;
}

/**
 * The sidecar beside this backend, over gRPC on loopback. Fails closed: a token is accepted only
 * when the sidecar says so; any failure other than a refusal is DomainError `unavailable` (503).
 */
@Injectable()
export class SidecarClient implements OnModuleDestroy {
  private readonly logger = new Logger(SidecarClient.name);
  private readonly auth: AuthServiceClient;
  private readonly health: HealthClient;

  constructor(
    address: string,
    private readonly internalToken: string,
  ) {
    this.auth = createAuthServiceClient(address);
    const Health = grpc.makeClientConstructor(
      healthService as unknown as grpc.ServiceDefinition,
      'grpc.health.v1.Health',
    ) as unknown as new (address: string, credentials: grpc.ChannelCredentials) => HealthClient;
    this.health = new Health(address, grpc.credentials.createInsecure());
  }

  /** The token's claims; BearerError invalid_token when the sidecar refuses it. */
  validateToken(token: string, requestId: string): Promise<TokenClaims> {
    return new Promise((resolve, reject) => {
      this.auth.ValidateToken(
        { token },
        this.metadata(requestId),
        { deadline: deadline(CALL_DEADLINE_MS) },
        (error, response) => {
          if (!error) return resolve(response.claims);
          if (error.code === grpc.status.UNAUTHENTICATED || error.code === grpc.status.INVALID_ARGUMENT) {
            return reject(new BearerError('invalid_token', error.details || 'The access token is invalid'));
          }
          this.logger.warn(`[${requestId}] ValidateToken failed: ${grpc.status[error.code] ?? error.code}`);
          reject(new DomainError('unavailable', 'Token validation is unavailable'));
        },
      );
    });
  }

  /** Makes the sidecar pull the control plane's revocations now; resolves once applied. */
  syncRevocations(requestId: string): Promise<void> {
    return new Promise((resolve, reject) => {
      this.auth.SyncRevocations(
        {},
        this.metadata(requestId),
        { deadline: deadline(CALL_DEADLINE_MS) },
        (error) => {
          if (!error) return resolve();
          reject(
            new DomainError(
              'unavailable',
              `SyncRevocations failed: ${grpc.status[error.code] ?? error.code}`,
            ),
          );
        },
      );
    });
  }

  /** `grpc.health.v1.Health/Check` of the auth service: connected only when SERVING. */
  state(): Promise<SidecarState> {
    return new Promise((resolve) => {
      this.health.Check(
        { service: AUTH_SERVICE_NAME },
        new grpc.Metadata(),
        { deadline: deadline(HEALTH_DEADLINE_MS) },
        (error, response) => {
          resolve(!error && response.status === 'SERVING' ? 'connected' : 'unavailable');
        },
      );
    });
  }

  onModuleDestroy(): void {
    this.auth.close();
    this.health.close();
  }

  private metadata(requestId: string): grpc.Metadata {
    const metadata = new grpc.Metadata();
    metadata.set(INTERNAL_TOKEN_METADATA, this.internalToken);
    metadata.set(REQUEST_ID_METADATA, requestId);
    return metadata;
  }
}

const deadline = (ms: number): Date => new Date(Date.now() + ms);
